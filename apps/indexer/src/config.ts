import { CHAIN_ENV_FIELDS, CONTRACT_VARIABLES } from '@lottery/chain';
import { EVENT_LOG_ENV_FIELDS, checkKafkaEnv } from '@lottery/event-log';
import { loadConfig, LOG_LEVEL_ENV, setVariables } from '@lottery/telemetry';
import { z } from 'zod';

const address = z.string().regex(/^0x[a-fA-F0-9]{40}$/, 'must be a 0x-prefixed 20-byte hex address');
const optionalAddress = address.optional().or(z.literal('').transform(() => undefined));

/** The real deployment on Base (Megapot V2's Jackpot); the deploy block is the operator's to set. */
export const BASE_PRESET = {
  CHAIN_ID: '8453',
  JACKPOT_ADDRESS: '0x3bAe643002069dBCbcd62B1A4eb4C4A397d042a2',
  LP_MANAGER_ADDRESS: '0xE63E54DF82d894396B885CE498F828f2454d9dCf',
} as const;

const schema = z
  .object({
    // `base` fills in BASE_PRESET (loadIndexerConfig): a misspelt preset would leave the addresses unset
    NETWORK: z.enum(['base'], { message: 'the only preset is "base"' }).optional(),
    RPC_URL: CHAIN_ENV_FIELDS.RPC_URL,
    CHAIN_ID: z.coerce.number().int().positive(),
    JACKPOT_ADDRESS: address,
    LP_MANAGER_ADDRESS: optionalAddress,
    PAYOUT_CALCULATOR_ADDRESS: optionalAddress,
    RANDOM_TICKET_BUYER_ADDRESS: optionalAddress,
    DAILY_POOL_ADDRESS: optionalAddress,
    START_BLOCK: z.coerce.number().int().nonnegative(),
    CONFIRMATIONS: z.coerce.number().int().nonnegative().default(0),
    REORG_DEPTH: CHAIN_ENV_FIELDS.REORG_DEPTH,
    LOG_LEVEL: LOG_LEVEL_ENV,
    BACKFILL_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
    BACKFILL_MAX_SPAN: z.coerce.number().int().min(1).default(100_000),
    BACKFILL_TARGET_LOGS: z.coerce.number().int().min(1).default(4_000),
    RPC_WS_URL: z
      .string()
      .regex(/^wss?:\/\/\S+$/, 'must be the WebSocket URL of the node, e.g. ws://127.0.0.1:8545')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(200),
    RPC_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
    STALL_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
    ...EVENT_LOG_ENV_FIELDS,
    DATABASE_URL: z.string().optional(),
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  })
  .superRefine((c, ctx) => {
    if (c.EVENT_LOG === 'postgres' && !c.DATABASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'required when EVENT_LOG=postgres' });
    }
    checkKafkaEnv(c, ctx);
  });

/** A configured contract, lowercase, with the variable that names it (for error messages). */
export interface ConfiguredContract {
  variable: (typeof CONTRACT_VARIABLES)[number];
  address: `0x${string}`;
}

export type IndexerConfig = z.infer<typeof schema> & {
  /** The addresses whose logs are read. */
  contracts: `0x${string}`[];
  configuredContracts: ConfiguredContract[];
};

/** The validated variables, for the deployment-manifest and README checks. */
export const INDEXER_ENV_SCHEMA = schema;
/** Every variable the indexer reads: the schema's (NETWORK, the preset, among them). */
export const INDEXER_ENV_KEYS: readonly string[] = Object.keys(schema.shape);

/** `NETWORK=base` fills in the real deployment's chain id and addresses; explicit variables still win. */
export function loadIndexerConfig(env: NodeJS.ProcessEnv = process.env): IndexerConfig {
  const merged = setVariables(env)['NETWORK'] === 'base' ? { ...BASE_PRESET, ...setVariables(env) } : env;
  const config = loadConfig('indexer', schema, merged);
  const configuredContracts = CONTRACT_VARIABLES.flatMap((variable) => {
    const address = config[variable];
    return address ? [{ variable, address: address.toLowerCase() as `0x${string}` }] : [];
  });
  return { ...config, contracts: configuredContracts.map((c) => c.address), configuredContracts };
}
