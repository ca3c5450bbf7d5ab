import { type GiveawayChain, startGiveawayChain } from '@lottery/pipeline-testing';
import { ANVIL_DEV_PRIVATE_KEY, type GiveawaysConfig } from '../../src/config/giveaways-config';

export interface PartnerChain extends GiveawayChain {
  /** The giveaway's configuration against this chain; point `rpcUrl` at a fault proxy as needed. */
  config: GiveawaysConfig;
}

/** The giveaway chain of @lottery/pipeline-testing, with the in-process runtime's configuration for it. */
export async function startPartnerChain(): Promise<PartnerChain> {
  const chain = await startGiveawayChain();
  const env = chain.apiEnv();
  return {
    ...chain,
    config: {
      rpcUrl: env.RPC_URL,
      chainId: chain.deployment.chainId,
      randomTicketBuyer: env.RANDOM_TICKET_BUYER_ADDRESS.toLowerCase() as GiveawaysConfig['randomTicketBuyer'],
      operatorPrivateKey: ANVIL_DEV_PRIVATE_KEY,
      jobTimeoutMs: 30_000,
      maxFeePerGas: null,
    },
  };
}
