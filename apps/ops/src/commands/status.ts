import type { Command } from 'commander';
import { Client } from 'pg';
import { contractsNamedIn, rpcErrorSummary } from '@lottery/chain';
import { createPublicClient, http } from 'viem';
import { createEventLog, type EventLog } from '@lottery/event-log';
import { CONNECT_TIMEOUT_MS, readFoldedState, readSchemaName } from '@lottery/persistence';
import { FOLD_RULES_VERSION, isNewerFoldRules, otherLogSignText, signOfAnotherLog } from '@lottery/projection';
import { databaseUrl } from '../connection';
import { embeddedChainNotRunning, embeddedChainUrl, explainedFailure } from '../explained-failure';
import { readState } from '../data-dir';
import { leftServers, runsInstanceProcess } from '../instance-processes';
import { displayedUrl, withUrlsHidden } from '@lottery/telemetry';
import { print } from '../output';
import { isMissingLog } from '../event-log-errors';
import { chainIdOf, eventLogConfigOf, loadPipelineEnv, rpcUrlOf } from './pipeline-env';
import { replayLockName } from './replay';

export interface InstanceStatus {
  rpcUrl: string;
  chainId: number;
  contracts: Record<string, string>;
  chain: { headBlock: number | null; error?: string };
  /** `error` (and nulls) when the event log cannot be read: a stopped instance's Postgres, a broker down. */
  indexer: {
    indexedBlock: number | null;
    lagBlocks: number | null;
    eventLog: string;
    logTail: number | null;
    /** False for a Postgres log whose tables are not there: before the indexer's first start, or a mistyped EVENT_LOG_SCHEMA. */
    logExists: boolean | null;
    error?: string;
  };
  /** `error` (and nulls) when the read models' database cannot be reached. */
  projector: {
    readSchema: string;
    /** False before `migrate` or the projector's first start created it, or for a mistyped READ_SCHEMA. */
    readSchemaExists: boolean | null;
    position: number | null;
    lastBlock: number | null;
    /** Null when the log or the read models cannot be read. */
    lagEvents: number | null;
    /** Null when the read models cannot be read. */
    replayInProgress: boolean | null;
    /** The fold rules version that built the read models (null: none folded yet, or not migrated yet). */
    foldRules: number | null;
    /**
     * Built under older (or withdrawn) rules than this code's FOLD_RULES_VERSION: the projector refuses them
     * until a replay. Not for a newer version's (`newerFoldRules`), which a replay by this code would undo.
     */
    replayNeeded: boolean | null;
    /** Built by a newer version than this code: run that version (this code's projector and start refuse them). */
    newerFoldRules: boolean | null;
    /**
     * How the event log shows the read models were folded from another log (it ends before their position,
     * or holds another record there), as the projector refuses them; null when it does not.
     */
    otherLog: string | null;
    error?: string;
  };
  /** Apps of the embedded instance (`npm start`) and whether each process is alive; its Postgres and anvil while they run. */
  processes: Record<string, { pid: number; running: boolean }>;
  /**
   * The embedded instance's API and its demo keys, as its start's banner gave them (local chain only):
   * null without an instance. For whoever lost the banner. `running`: its process runs (a stopped
   * instance keeps no pids: not running).
   */
  api: { url: string; running: boolean; demoApiKey: string | null; demoPartnerKey: string | null } | null;
}

/**
 * The node's head, once it has said it serves `chainId` and holds the Jackpot (when its address is known):
 * a head of another chain would make the lags nonsense, and a node of the same chain id may be another
 * chain (any anvil is 31337: one started on a stopped instance's port).
 */
async function headBlock(
  rpcUrl: string,
  chainId: number,
  jackpot: string | undefined,
): Promise<{ headBlock: number | null; error?: string }> {
  // viem, as the apps: a URL's user info goes as basic auth (fetch refuses a URL holding it)
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: 3_000, retryCount: 0 }) });
  const call = async (method: string, params: unknown[] = []): Promise<string> => {
    const result: unknown = await client.request({ method, params } as never);
    if (typeof result !== 'string' || !/^0x[0-9a-f]*$/i.test(result)) {
      throw new Error(`node answered ${method} with ${JSON.stringify(result)}`);
    }
    return result;
  };
  // the URL's path or user info may hold a provider's key: never in what status prints
  const said = (error: unknown) => withUrlsHidden(rpcErrorSummary(error), [rpcUrl]);
  const ask = async (method: string): Promise<number> => {
    const answer = await call(method);
    if (answer === '0x') throw new Error(`node answered ${method} with no number`);
    return Number(answer);
  };
  let served: number;
  try {
    served = await ask('eth_chainId');
  } catch (error) {
    // said as every other command says it of the embedded instance's own anvil
    if (rpcUrl === embeddedChainUrl()) return { headBlock: null, error: embeddedChainNotRunning().message };
    return { headBlock: null, error: `node unreachable: ${said(error)}` };
  }
  if (served !== chainId) return { headBlock: null, error: `the node serves chain ${served}, not CHAIN_ID ${chainId}` };
  try {
    if (jackpot && (await call('eth_getCode', [jackpot, 'latest'])) === '0x') {
      return { headBlock: null, error: `the node has no contract at the Jackpot's address ${jackpot}: not this chain` };
    }
    return { headBlock: await ask('eth_blockNumber') };
  } catch (error) {
    return { headBlock: null, error: said(error) };
  }
}

function contractsOf(env: NodeJS.ProcessEnv): Record<string, string> {
  const given = contractsNamedIn(env);
  return Object.keys(given).length > 0 ? given : (readState().contracts ?? {});
}

/** What a failure to reach a component says, as the CLI would have said it had it stopped there. */
function failureText(error: unknown): string {
  const explained = explainedFailure(error);
  return explained instanceof Error ? explained.message : String(explained);
}

type EventLogReading = Pick<InstanceStatus['indexer'], 'indexedBlock' | 'logTail' | 'logExists' | 'error'> & {
  logHead: number | null;
};

async function readEventLog(eventLog: EventLog): Promise<EventLogReading> {
  try {
    const indexedBlock = (await eventLog.lastCheckpoint())?.blockNumber ?? null;
    return { indexedBlock, logHead: await eventLog.head(), logTail: await eventLog.tail(), logExists: true };
  } catch (error) {
    // the log's tables or topics come with the indexer's first start: before it, the log is empty
    if (isMissingLog(error)) return { indexedBlock: null, logHead: 0, logTail: 0, logExists: false };
    return { indexedBlock: null, logHead: null, logTail: null, logExists: null, error: failureText(error) };
  }
}

async function readProjector(
  schema: string,
  eventLog: EventLog,
  log: EventLogReading,
): Promise<InstanceStatus['projector']> {
  const db = new Client({
    connectionString: databaseUrl(),
    application_name: 'ops-status',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  try {
    await db.connect();
    const exists = await db.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [schema]);
    // a schema not migrated at all has no projector_state yet (nothing folded)
    const state = await readFoldedState(db, schema);
    // A replay runs while its session holds the lock; a `_next` schema alone may be an interrupted one's.
    // pg_locks shows a bigint key as its high and low 32 bits (classid, objid).
    const replaying = await db.query<{ held: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM pg_locks l, (SELECT hashtext($1)::bigint AS k) key
          WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND l.classid::bigint = (key.k >> 32) & 4294967295 AND l.objid::bigint = key.k & 4294967295
       ) AS held`,
      [replayLockName(readSchemaName(schema))],
    );
    const position = state?.position ?? null;
    const foldRules = state?.foldRules ?? null;
    // as the projector checks its log at start (and `ops replay` without --new-log)
    const sign =
      log.logExists && state && position !== null
        ? await signOfAnotherLog(eventLog, { position, positionEventId: state.positionEventId })
        : null;
    const { logHead, logTail } = log;
    const behind = logTail === null || position === null ? 0 : Math.max(0, logTail - 1 - position);
    // on Kafka each append's commit marker takes a position: past the last event, none of them is one
    const caughtUp =
      position !== null && behind > 0 && log.logExists && (await eventLog.read(position + 1, 1)).length === 0;
    return {
      readSchema: schema,
      readSchemaExists: (exists.rowCount ?? 0) > 0,
      position,
      lastBlock: state && state.lastBlock >= 0 ? state.lastBlock : null,
      lagEvents:
        logHead === null || logTail === null
          ? null
          : // nothing folded yet: the whole log is ahead (Postgres positions start at 1, Kafka offsets at 0)
            position === null
            ? logTail - logHead
            : caughtUp
              ? 0
              : behind,
      replayInProgress: replaying.rows[0]?.held === true,
      foldRules,
      replayNeeded: foldRules !== null && foldRules !== FOLD_RULES_VERSION && !isNewerFoldRules(foldRules),
      newerFoldRules: foldRules !== null && isNewerFoldRules(foldRules),
      otherLog: sign ? otherLogSignText(sign) : null,
    };
  } catch (error) {
    return {
      readSchema: schema,
      readSchemaExists: null,
      position: null,
      lastBlock: null,
      lagEvents: null,
      replayInProgress: null,
      foldRules: null,
      replayNeeded: null,
      newerFoldRules: null,
      otherLog: null,
      error: failureText(error),
    };
  } finally {
    await db.end().catch(() => undefined);
  }
}

/**
 * Everything `ops status` reports, read from the node, the event log and the read models. A part that
 * cannot be read (a stopped instance, a database or broker down) is reported as such, beside the rest.
 */
export async function instanceStatus(env: NodeJS.ProcessEnv = process.env): Promise<InstanceStatus> {
  const state = readState();
  const pipeline = loadPipelineEnv(env);
  const chainId = chainIdOf(pipeline);
  const rpcUrl = rpcUrlOf(pipeline);
  const contracts = contractsOf(env);
  const chain = await headBlock(rpcUrl, chainId, contracts['jackpot']);

  const eventLog = createEventLog(eventLogConfigOf(pipeline, chainId));
  let log: EventLogReading;
  let projector: InstanceStatus['projector'];
  try {
    log = await readEventLog(eventLog);
    projector = await readProjector(pipeline.READ_SCHEMA, eventLog, log);
  } finally {
    await eventLog.close().catch(() => undefined);
  }
  const { indexedBlock } = log;
  const processes: InstanceStatus['processes'] = Object.fromEntries([
    ...Object.entries(state.pids ?? {}).map(([name, pid]) => [name, { pid, running: runsInstanceProcess(name, pid) }]),
    // the embedded Postgres and anvil, while they run from the data folder
    ...Object.entries(leftServers()).map(([name, pid]) => [name, { pid, running: true }]),
  ]);

  return {
    rpcUrl: displayedUrl(rpcUrl),
    chainId,
    contracts,
    chain,
    indexer: {
      indexedBlock,
      lagBlocks: chain.headBlock !== null && indexedBlock !== null ? Math.max(0, chain.headBlock - indexedBlock) : null,
      eventLog:
        pipeline.EVENT_LOG === 'kafka'
          ? `kafka ${pipeline.KAFKA_BROKERS} "${pipeline.KAFKA_TOPIC_PREFIX}"`
          : `postgres "${pipeline.EVENT_LOG_SCHEMA}"`,
      logTail: log.logTail,
      logExists: log.logExists,
      ...(log.error === undefined ? {} : { error: log.error }),
    },
    projector,
    processes,
    api:
      state.apiPort === undefined
        ? null
        : {
            url: `http://localhost:${state.apiPort}`,
            running: processes['api']?.running === true,
            demoApiKey: state.demoApiKey ?? null,
            demoPartnerKey: state.demoPartnerKey ?? null,
          },
  };
}

function indexerLine({ indexer }: InstanceStatus): string {
  if (indexer.error !== undefined) return `indexer      event log ${indexer.eventLog} unreadable: ${indexer.error}`;
  return (
    `indexer      block ${indexer.indexedBlock ?? 'none yet'}` +
    (indexer.lagBlocks === null ? '' : `, ${indexer.lagBlocks} blocks behind the head`) +
    `; event log ${indexer.eventLog}, next position ${indexer.logTail}` +
    (indexer.logExists ? '' : ' (no such log yet: is EVENT_LOG_SCHEMA right?)')
  );
}

function projectorLine({ projector: p }: InstanceStatus): string {
  if (p.error !== undefined) return `projector    read models "${p.readSchema}" unreadable: ${p.error}`;
  return (
    `projector    position ${p.position ?? 'none yet'}` +
    (p.lagEvents === null ? '' : `, ${p.lagEvents} events behind the log`) +
    `; read models "${p.readSchema}"` +
    (p.readSchemaExists ? '' : ' (no such schema yet: is READ_SCHEMA right?)') +
    (p.otherLog ? ` (another log's read models: at position ${p.position}, ${p.otherLog})` : '') +
    (p.replayInProgress ? ' (a replay is building the next generation)' : '') +
    (p.replayNeeded
      ? `; folded under fold rules ${p.foldRules}, this code folds ${FOLD_RULES_VERSION}: run \`ops replay\``
      : '') +
    (p.newerFoldRules
      ? `; folded under fold rules ${p.foldRules} by a newer version (this code folds ${FOLD_RULES_VERSION}): run that version`
      : '')
  );
}

function describe(s: InstanceStatus): string {
  const contracts = Object.entries(s.contracts).map(([name, address]) => `    ${name.padEnd(18)}${address}`);
  const processes = Object.entries(s.processes).map(
    ([name, p]) => `    ${name.padEnd(18)}pid ${p.pid} ${p.running ? 'running' : 'not running'}`,
  );
  return [
    `chain        ${s.chainId} at ${s.rpcUrl}, head ${s.chain.headBlock ?? `unknown (${s.chain.error})`}`,
    `contracts`,
    ...contracts,
    indexerLine(s),
    projectorLine(s),
    ...(processes.length > 0 ? ['processes', ...processes] : []),
    ...(s.api
      ? [
          `api          ${s.api.url}` +
            (s.api.running ? '' : ' (not running)') +
            (s.api.demoApiKey ? `   demo API key ${s.api.demoApiKey}, partner key ${s.api.demoPartnerKey}` : ''),
        ]
      : []),
  ].join('\n');
}

/** `ops status`: where the chain, the indexer and the projector are. */
export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('chain head, indexed block, projector lag, read-model schema, contracts')
    .option('--json', 'print one JSON object: rpcUrl, chainId, contracts, chain, indexer, projector, processes, api')
    .action(async (o: { json?: boolean }) => {
      const status = await instanceStatus();
      print(!!o.json, status, () => describe(status));
    });
}
