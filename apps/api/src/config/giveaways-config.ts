import type { Hex } from '@lottery/domain';

/** Where and as whom the partner giveaway buys tickets; null in ApiConfig when the chain is not configured. */
export interface GiveawaysConfig {
  rpcUrl: string;
  chainId: number;
  randomTicketBuyer: Hex;
  operatorPrivateKey: Hex;
  /** How long a partner's POST waits for its purchase; the purchase itself carries on after that. */
  jobTimeoutMs: number;
  /** The most a transaction offers per gas (wei), replacements included; null: what the network asks. */
  maxFeePerGas: bigint | null;
}

/**
 * anvil's dev account 0, whose private key is public. Used only when OPERATOR_PRIVATE_KEY=anvil on anvil's chain id,
 * which is what `ops start` configures for the embedded local chain.
 */
export const ANVIL_DEV_PRIVATE_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const ANVIL_CHAIN_ID = 31337;

export interface GiveawaysEnv {
  RPC_URL?: string;
  CHAIN_ID?: number;
  RANDOM_TICKET_BUYER_ADDRESS?: string;
  OPERATOR_PRIVATE_KEY?: string;
  PARTNER_JOB_TIMEOUT_MS: number;
  PARTNER_MAX_FEE_GWEI?: bigint;
}

const REQUIRED = ['RPC_URL', 'CHAIN_ID', 'RANDOM_TICKET_BUYER_ADDRESS', 'OPERATOR_PRIVATE_KEY'] as const;

/**
 * All chain variables or none: none disables the partner giveaway (its endpoints answer 503) so the
 * Data API runs without a chain; some but not all is a mistake worth refusing to start over. Judged by
 * which variables are set, so it is reported beside any malformed value, not after it is fixed.
 */
export function giveawaysPresenceProblems(set: Record<string, unknown>): string[] {
  const missing = REQUIRED.filter((name) => set[name] === undefined);
  if (missing.length === REQUIRED.length) return [];
  return missing.map((name) => `${name}: required when any of ${REQUIRED.join(', ')} is set`);
}

/**
 * The giveaway's configuration, or null when none of its chain variables is set (or only some are:
 * giveawaysPresenceProblems reports those, judged on what was set before parsing).
 */
export function resolveGiveawaysConfig(e: GiveawaysEnv): { config: GiveawaysConfig | null; problems: string[] } {
  if (REQUIRED.some((name) => e[name] === undefined)) return { config: null, problems: [] };
  const chainId = e.CHAIN_ID as number;
  let key = e.OPERATOR_PRIVATE_KEY as string;
  if (key === 'anvil') {
    if (chainId !== ANVIL_CHAIN_ID) {
      return {
        config: null,
        problems: [
          `OPERATOR_PRIVATE_KEY: "anvil" (anvil's publicly known development key) is only accepted with CHAIN_ID=${ANVIL_CHAIN_ID}`,
        ],
      };
    }
    key = ANVIL_DEV_PRIVATE_KEY;
  }
  return {
    config: {
      rpcUrl: e.RPC_URL as string,
      chainId,
      randomTicketBuyer: (e.RANDOM_TICKET_BUYER_ADDRESS as string).toLowerCase() as Hex,
      operatorPrivateKey: key.toLowerCase() as Hex,
      jobTimeoutMs: e.PARTNER_JOB_TIMEOUT_MS,
      maxFeePerGas: e.PARTNER_MAX_FEE_GWEI ?? null,
    },
    problems: [],
  };
}
