import { existsSync } from 'node:fs';
import { EVENT_LOG_ENV_FIELDS, eventLogConfigFromEnv, checkKafkaEnv, type EventLogConfig } from '@lottery/event-log';
import { CHAIN_ENV_FIELDS } from '@lottery/chain';
import { READ_SCHEMA_ENV } from '@lottery/persistence';
import { loadConfig, setVariables } from '@lottery/telemetry';
import { z } from 'zod';
import { databaseUrl } from '../connection';
import { dataDir, readState, statePath } from '../data-dir';

const optionalInt = (min: number) => z.coerce.number().int().min(min).optional();

/**
 * The variables `ops replay` and `ops reindex` read: the same names and defaults as the indexer's and
 * the projector's configuration, so an operator runs them with the apps' environment. Unset CHAIN_ID,
 * RPC_URL and START_BLOCK fall back to the embedded instance that `npm start` runs.
 */
const schema = z
  .object({
    ...EVENT_LOG_ENV_FIELDS,
    CHAIN_ID: z.coerce.number().int().positive().optional(),
    READ_SCHEMA: READ_SCHEMA_ENV,
    REORG_WINDOW_BLOCKS: optionalInt(1),
    RPC_URL: CHAIN_ENV_FIELDS.RPC_URL.optional(),
    START_BLOCK: optionalInt(0),
    REORG_DEPTH: CHAIN_ENV_FIELDS.REORG_DEPTH,
  })
  .superRefine(checkKafkaEnv);

export type OpsPipelineEnv = z.infer<typeof schema>;

/** READ_SCHEMA alone, validated as the apps validate it: for `migrate`, and `start` before its apps. */
export function loadReadSchema(env: NodeJS.ProcessEnv = process.env): string {
  return loadConfig('ops', z.object({ READ_SCHEMA: READ_SCHEMA_ENV }), env).READ_SCHEMA;
}

/**
 * Empty variables count as unset (a compose file's `CHAIN_ID=` means "not given"). An unset EVENT_LOG is
 * the one the embedded instance's `ops start` configured, so status, replay and reindex read one log.
 */
export function loadPipelineEnv(env: NodeJS.ProcessEnv = process.env): OpsPipelineEnv {
  return loadConfig('ops', schema, { EVENT_LOG: readState().eventLog, ...setVariables(env) });
}

/** CHAIN_ID, or the chain of the embedded instance. */
export function chainIdOf(env: OpsPipelineEnv): number {
  const chainId = env.CHAIN_ID ?? readState().chainId;
  if (chainId === undefined) {
    throw new Error(
      `no chain id: set CHAIN_ID (8453 for Base); ` +
        (existsSync(statePath())
          ? `the instance in ${dataDir()} has recorded no chain yet (its first start stopped before its chain ran)`
          : `no embedded instance in ${dataDir()} either (is DATA_DIR right? \`npm start\` creates one there)`),
    );
  }
  return chainId;
}

/** The event log the indexer writes and the projector reads. */
export function eventLogConfigOf(env: OpsPipelineEnv, chainId: number): EventLogConfig {
  return eventLogConfigFromEnv(env, chainId, databaseUrl());
}

/** RPC_URL, or the node the embedded instance follows: the operator's chain it was started with, or its anvil. */
export function rpcUrlOf(env: OpsPipelineEnv): string {
  if (env.RPC_URL) return env.RPC_URL;
  const state = readState();
  if (state.rpcUrl) return state.rpcUrl;
  const port = state.anvilPort;
  if (port) return `http://127.0.0.1:${port}`;
  throw new Error('no chain node: set RPC_URL, or run `npm start` first to create the embedded instance');
}

/** START_BLOCK (the deploy block), or the embedded lottery's deploy block. */
export function deployBlockOf(env: OpsPipelineEnv): number {
  const block = env.START_BLOCK ?? readState().deployBlock;
  if (block === undefined) {
    throw new Error(
      'no deploy block: set START_BLOCK to the block the lottery was deployed in (as the indexer has it)',
    );
  }
  return block;
}
