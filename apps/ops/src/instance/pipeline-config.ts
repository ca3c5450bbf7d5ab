import { CONTRACT_VARIABLES, contractsNamedIn, contractVariables, type NamedContract } from '@lottery/chain';
import type { LotteryDeployment } from '@lottery/contracts';
import { isAddressShape } from '@lottery/domain';
import { setVariables } from '@lottery/telemetry';

/** Where the chain is and which contracts to read: the local lottery, or a real chain from the environment. */
export interface ChainTarget {
  rpcUrl: string;
  /** The node's WebSocket endpoint: the indexer learns of new blocks from it instead of at its next poll. */
  wsUrl?: string;
  chainId: number;
  startBlock: number;
  contracts: Partial<Record<NamedContract, string>> & { jackpot: string };
  /** The partner giveaway's signer: anvil's dev key locally, OPERATOR_PRIVATE_KEY otherwise. */
  operatorPrivateKey?: string;
}

export function localChainTarget(rpcUrl: string, deployment: LotteryDeployment): ChainTarget {
  return {
    rpcUrl,
    chainId: deployment.chainId,
    startBlock: Number(deployment.deployBlock),
    contracts: { ...deployment.addresses },
    operatorPrivateKey: 'anvil',
  };
}

/** RPC_URL (+ CHAIN_ID, START_BLOCK and the contract addresses, and optionally RPC_WS_URL) names a real chain. */
export function externalChainTarget(env: NodeJS.ProcessEnv): ChainTarget {
  const missing = ['RPC_URL', 'CHAIN_ID', 'START_BLOCK', 'JACKPOT_ADDRESS'].filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`RPC_URL is set, so a real chain is used: also set ${missing.join(', ')}`);
  // the API buys partner tickets only with both; one alone would leave its partner endpoints at 503, unsaid
  const purchases = ['OPERATOR_PRIVATE_KEY', 'RANDOM_TICKET_BUYER_ADDRESS'];
  const unset = purchases.filter((name) => !env[name]);
  if (unset.length === 1) {
    throw new Error(
      `${purchases.find((name) => env[name])} is set, so partner tickets are bought on chain: also set ${unset[0]}`,
    );
  }
  const whole = (name: string, least: number) => {
    const value = Number(env[name]);
    if (!/^\d+$/.test(env[name] as string) || !Number.isSafeInteger(value) || value < least) {
      throw new Error(`${name} must be a whole number from ${least}, got "${env[name]}"`);
    }
    return value;
  };
  const chainId = whole('CHAIN_ID', 1);
  const startBlock = whole('START_BLOCK', 0);
  const misshapen = CONTRACT_VARIABLES.filter((name) => env[name] && !isAddressShape(env[name] as string));
  if (misshapen.length > 0) {
    throw new Error(`not an address (0x and 40 hex digits): ${misshapen.map((n) => `${n}="${env[n]}"`).join(', ')}`);
  }
  return {
    rpcUrl: env['RPC_URL'] as string,
    wsUrl: env['RPC_WS_URL'],
    chainId,
    startBlock,
    contracts: { ...contractsNamedIn(env), jackpot: env['JACKPOT_ADDRESS'] as string },
    operatorPrivateKey: env['OPERATOR_PRIVATE_KEY'],
  };
}

export interface PipelineSettings {
  chain: ChainTarget;
  databaseUrl: string;
  /** Set: the event log is Kafka; unset: a table in the database. */
  kafkaBrokers?: string;
  kafkaTopicPrefix?: string;
  redisUrl?: string;
  apiPort: number;
  metricsPorts: { indexer: number; projector: number };
}

function eventLogEnv(s: PipelineSettings): NodeJS.ProcessEnv {
  return s.kafkaBrokers
    ? {
        EVENT_LOG: 'kafka',
        KAFKA_BROKERS: s.kafkaBrokers,
        KAFKA_TOPIC_PREFIX: s.kafkaTopicPrefix,
        DATABASE_URL: s.databaseUrl,
      }
    : { EVENT_LOG: 'postgres', DATABASE_URL: s.databaseUrl };
}

/**
 * Every variable `appEnvironments` may give an app. An app's process inherits the operator's environment
 * without them: one left out on purpose (the API's chain variables, when no signer is known) must not
 * come back from the shell that ran `ops start`, where the indexer's are set.
 */
export const PIPELINE_VARIABLES = [
  'EVENT_LOG',
  'KAFKA_BROKERS',
  'KAFKA_TOPIC_PREFIX',
  'DATABASE_URL',
  'RPC_URL',
  'RPC_WS_URL',
  'CHAIN_ID',
  'START_BLOCK',
  ...CONTRACT_VARIABLES,
  'OPERATOR_PRIVATE_KEY',
  'METRICS_PORT',
  'READY_MAX_LAG_EVENTS',
  'PORT',
  'REDIS_URL',
  'PIPELINE_READY_URLS',
] as const;

/** An app's process environment: the operator's, less the pipeline's variables, plus the app's own. */
export function appProcessEnvironment(inherited: NodeJS.ProcessEnv, own: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...inherited };
  for (const name of PIPELINE_VARIABLES) delete env[name];
  return { ...env, ...own };
}

/** The environment of each app, exactly the variables its config schema reads. */
export function appEnvironments(s: PipelineSettings): Record<'indexer' | 'projector' | 'api', NodeJS.ProcessEnv> {
  const c = s.chain.contracts;
  const ready = (port: number) => `http://127.0.0.1:${port}/health/ready`;
  return {
    indexer: setVariables({
      ...eventLogEnv(s),
      RPC_URL: s.chain.rpcUrl,
      RPC_WS_URL: s.chain.wsUrl,
      CHAIN_ID: String(s.chain.chainId),
      START_BLOCK: String(s.chain.startBlock),
      ...contractVariables(c),
      METRICS_PORT: String(s.metricsPorts.indexer),
    }),
    projector: setVariables({
      ...eventLogEnv(s),
      CHAIN_ID: String(s.chain.chainId),
      METRICS_PORT: String(s.metricsPorts.projector),
      // Ready (and so `ops start` says ready) only once the whole history is folded. The lag counts
      // log positions, and in Kafka every append's transaction leaves a commit marker at the end.
      READY_MAX_LAG_EVENTS: s.kafkaBrokers ? '1' : '0',
    }),
    api: setVariables({
      DATABASE_URL: s.databaseUrl,
      PORT: String(s.apiPort),
      REDIS_URL: s.redisUrl,
      PIPELINE_READY_URLS: `${ready(s.metricsPorts.indexer)},${ready(s.metricsPorts.projector)}`,
      // The partner giveaway buys on the same chain, when a signer is known.
      ...(c.randomTicketBuyer && s.chain.operatorPrivateKey
        ? {
            RPC_URL: s.chain.rpcUrl,
            CHAIN_ID: String(s.chain.chainId),
            RANDOM_TICKET_BUYER_ADDRESS: c.randomTicketBuyer,
            OPERATOR_PRIVATE_KEY: s.chain.operatorPrivateKey,
          }
        : {}),
    }),
  };
}
