import type { Command } from 'commander';
import { Client } from 'pg';
import { createEventLog } from '@lottery/event-log';
import { CONNECT_TIMEOUT_MS, positionEventIdAt, readSchemaName } from '@lottery/persistence';
import { FOLD_RULES_VERSION, otherLogSignText, signOfAnotherLog } from '@lottery/projection';
import { databaseUrl } from '../connection';
import { readState, runsInstanceProcess } from '../data-dir';
import { displayedUrl } from '@lottery/telemetry';
import { print } from '../output';
import { isUndefinedTable } from '../event-log-errors';
import { chainIdOf, eventLogConfigOf, loadPipelineEnv, rpcUrlOf } from './pipeline-env';
import { replayLockName } from './replay';

export interface InstanceStatus {
  rpcUrl: string;
  chainId: number;
  contracts: Record<string, string>;
  chain: { headBlock: number | null; error?: string };
  indexer: {
    indexedBlock: number | null;
    lagBlocks: number | null;
    eventLog: string;
    logTail: number;
    /** False for a Postgres log whose tables are not there: before the indexer's first start, or a mistyped EVENT_LOG_SCHEMA. */
    logExists: boolean;
  };
  projector: {
    readSchema: string;
    /** False before `migrate` or the projector's first start created it, or for a mistyped READ_SCHEMA. */
    readSchemaExists: boolean;
    position: number | null;
    lastBlock: number | null;
    lagEvents: number;
    replayInProgress: boolean;
    /** The fold rules version that built the read models (null: none folded yet, or not migrated yet). */
    foldRules: number | null;
    /** Built under other rules than this code's (FOLD_RULES_VERSION): the projector refuses them until a replay. */
    replayNeeded: boolean;
    /**
     * How the event log shows the read models were folded from another log (it ends before their position,
     * or holds another record there), as the projector refuses them; null when it does not.
     */
    otherLog: string | null;
  };
  /** Apps of the embedded instance (`npm start`) and whether each process is alive. */
  processes: Record<string, { pid: number; running: boolean }>;
  /**
   * The embedded instance's API and its demo keys, as its start's banner gave them (local chain only):
   * null without an instance. For whoever lost the banner.
   */
  api: { url: string; demoApiKey: string | null; demoPartnerKey: string | null } | null;
}

/** The node's head, once it has said it serves `chainId`: a head of another chain would make the lags nonsense. */
async function headBlock(rpcUrl: string, chainId: number): Promise<{ headBlock: number | null; error?: string }> {
  const ask = async (method: string): Promise<number> => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
      signal: AbortSignal.timeout(3_000),
    });
    const body = (await response.json()) as { result?: unknown; error?: unknown };
    if (typeof body.result !== 'string' || !/^0x[0-9a-f]+$/i.test(body.result)) {
      throw new Error(`node answered ${method} with ${JSON.stringify(body.error ?? body)}`);
    }
    return Number(body.result);
  };
  let served: number;
  try {
    served = await ask('eth_chainId');
  } catch (error) {
    return { headBlock: null, error: `node unreachable: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (served !== chainId) return { headBlock: null, error: `the node serves chain ${served}, not CHAIN_ID ${chainId}` };
  try {
    return { headBlock: await ask('eth_blockNumber') };
  } catch (error) {
    return { headBlock: null, error: error instanceof Error ? error.message : String(error) };
  }
}

function contractsOf(env: NodeJS.ProcessEnv): Record<string, string> {
  const fromEnv = {
    jackpot: env['JACKPOT_ADDRESS'],
    lpManager: env['LP_MANAGER_ADDRESS'],
    payoutCalculator: env['PAYOUT_CALCULATOR_ADDRESS'],
    randomTicketBuyer: env['RANDOM_TICKET_BUYER_ADDRESS'],
    dailyTicketPool: env['DAILY_POOL_ADDRESS'],
  };
  const given = Object.entries(fromEnv).filter((e): e is [string, string] => !!e[1]);
  return given.length > 0 ? Object.fromEntries(given) : (readState().contracts ?? {});
}

/** Everything `ops status` reports, read from the node, the event log and the read models. */
export async function instanceStatus(env: NodeJS.ProcessEnv = process.env): Promise<InstanceStatus> {
  const state = readState();
  const pipeline = loadPipelineEnv(env);
  const chainId = chainIdOf(pipeline);
  const rpcUrl = rpcUrlOf(pipeline);
  const chain = await headBlock(rpcUrl, chainId);

  const eventLog = createEventLog(eventLogConfigOf(pipeline, chainId));
  let indexedBlock: number | null;
  let logHead: number;
  let logTail: number;
  let logExists = true;
  try {
    indexedBlock = (await eventLog.lastCheckpoint())?.blockNumber ?? null;
    logHead = await eventLog.head();
    logTail = await eventLog.tail();
  } catch (error) {
    // the Postgres log's tables come with the indexer's first start: before it, the log is empty
    if (!isUndefinedTable(error)) {
      await eventLog.close();
      throw error;
    }
    [indexedBlock, logHead, logTail, logExists] = [null, 0, 0, false];
  }

  const db = new Client({
    connectionString: databaseUrl(),
    application_name: 'ops-status',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  let projector: InstanceStatus['projector'];
  try {
    await db.connect();
    const schema = pipeline.READ_SCHEMA;
    const exists = await db.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [schema]);
    // through to_jsonb: a schema the new code has not migrated yet has no fold_rules column; one not
    // migrated at all has no projector_state yet (nothing folded)
    const row = await db
      .query<{
        position: string | null;
        last_block: string;
        fold_rules: number | null;
        position_event_id: string | null;
        position_event_position: string | null;
      }>(
        `SELECT position, last_block, (to_jsonb(p) ->> 'fold_rules')::integer AS fold_rules,
                to_jsonb(p) ->> 'position_event_id' AS position_event_id,
                to_jsonb(p) ->> 'position_event_position' AS position_event_position
           FROM "${schema}".projector_state p WHERE id = 1`,
      )
      .then(
        (r) => r.rows[0],
        (error: unknown) => {
          if (!isUndefinedTable(error)) throw error;
          return undefined;
        },
      );
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
    const position = row?.position == null ? null : Number(row.position);
    const foldRules = row?.fold_rules ?? null;
    // as the projector checks its log at start (and `ops replay` without --new-log)
    const sign =
      logExists && row && position !== null
        ? await signOfAnotherLog(eventLog, { position, positionEventId: positionEventIdAt(row) })
        : null;
    projector = {
      readSchema: schema,
      readSchemaExists: (exists.rowCount ?? 0) > 0,
      position,
      lastBlock: row && Number(row.last_block) >= 0 ? Number(row.last_block) : null,
      // nothing folded yet: the whole log is ahead (Postgres positions start at 1, Kafka offsets at 0)
      lagEvents: position === null ? logTail - logHead : Math.max(0, logTail - 1 - position),
      replayInProgress: replaying.rows[0]?.held === true,
      foldRules,
      replayNeeded: foldRules !== null && foldRules !== FOLD_RULES_VERSION,
      otherLog: sign ? otherLogSignText(sign) : null,
    };
  } finally {
    await Promise.all([db.end().catch(() => undefined), eventLog.close()]);
  }

  return {
    rpcUrl: displayedUrl(rpcUrl),
    chainId,
    contracts: contractsOf(env),
    chain,
    indexer: {
      indexedBlock,
      lagBlocks: chain.headBlock !== null && indexedBlock !== null ? Math.max(0, chain.headBlock - indexedBlock) : null,
      eventLog:
        pipeline.EVENT_LOG === 'kafka' ? `kafka ${pipeline.KAFKA_BROKERS}` : `postgres "${pipeline.EVENT_LOG_SCHEMA}"`,
      logTail,
      logExists,
    },
    projector,
    processes: Object.fromEntries(
      Object.entries(state.pids ?? {}).map(([name, pid]) => [name, { pid, running: runsInstanceProcess(name, pid) }]),
    ),
    api:
      state.apiPort === undefined
        ? null
        : {
            url: `http://localhost:${state.apiPort}`,
            demoApiKey: state.demoApiKey ?? null,
            demoPartnerKey: state.demoPartnerKey ?? null,
          },
  };
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
    `indexer      block ${s.indexer.indexedBlock ?? 'none yet'}` +
      (s.indexer.lagBlocks === null ? '' : `, ${s.indexer.lagBlocks} blocks behind the head`) +
      `; event log ${s.indexer.eventLog}, next position ${s.indexer.logTail}` +
      (s.indexer.logExists ? '' : ' (no such log yet: is EVENT_LOG_SCHEMA right?)'),
    `projector    position ${s.projector.position ?? 'none yet'}, ${s.projector.lagEvents} events behind the log` +
      `; read models "${s.projector.readSchema}"` +
      (s.projector.readSchemaExists ? '' : ' (no such schema yet: is READ_SCHEMA right?)') +
      (s.projector.otherLog
        ? ` (another log's read models: at position ${s.projector.position}, ${s.projector.otherLog})`
        : '') +
      (s.projector.replayInProgress ? ' (a replay is building the next generation)' : '') +
      (s.projector.replayNeeded
        ? `; folded under fold rules ${s.projector.foldRules}, this code folds ${FOLD_RULES_VERSION}: run \`ops replay\``
        : ''),
    ...(processes.length > 0 ? ['processes', ...processes] : []),
    ...(s.api
      ? [
          `api          ${s.api.url}` +
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
