import { accessSync, chmodSync, constants, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { AbortedError } from '@lottery/chain';
import { eventLogConfigFromEnv, eventLogIdentity, type EventLogConfig } from '@lottery/event-log';
import { ApiKeysService, PartnersService, withAccountsDatabase } from '@lottery/persistence';
import { FOLD_RULES_VERSION, isNewerFoldRules } from '@lottery/projection';
import { createCliLogger, freePort, ProgressReporter, type Logger } from '@lottery/telemetry';
import { keyPrefix } from '../accounts-environment';
import { displayedUrl } from '@lottery/telemetry';
import { dataDir, readState, statePath, writeState } from '../data-dir';
import { liveProcesses, startIsRunning, stopLeftServers } from '../instance-processes';
import { clusterPassword, startEmbeddedPostgres, type EmbeddedDatabase } from '../embedded/embedded-postgres';
import { ProcessSupervisor } from '../embedded/process-supervisor';
import { startLocalChain, type LocalChain } from '../instance/local-chain';
import {
  appEnvironments,
  appProcessEnvironment,
  externalChainTarget,
  localChainTarget,
  type ChainTarget,
} from '../instance/pipeline-config';
import { deploymentEnvFile } from '../instance/deployment-env-file';
import { waitUntilReady } from '../instance/pipeline-watch';
import { foldRulesOf } from '../instance/read-model-rules';
import { instanceBanner, startOutput, type InstanceSummary, type StartOutput } from '../instance/start-output';
import { migrateAll } from './migrate';
import { ReplayRunningError, runReplay, type ReplayRun } from './replay';
import { nonNegativeInt, positiveInt } from './options';
import { loadPipelineEnv, loadReadSchema } from './pipeline-env';
import { STOP_SIGNALS } from '../stop-signals';

export interface StartOptions {
  rounds: number;
  ticketsPerRound: number;
  purchaseEvery: number;
  drawEvery: number;
  live: boolean;
  seed: string;
  host: string;
  chainOnly?: boolean;
  deploymentEnv?: string;
  advertisedRpcUrl?: string;
  /** JSON lines on stdout instead of the banner: `{"event":"ready",…}` and the others `start --help` lists. */
  json?: boolean;
}

const APPS = {
  indexer: 'apps/indexer/src/main.ts',
  projector: 'apps/projector/src/main.ts',
  api: 'apps/api/src/main.ts',
} as const;

/** Files a data folder may hold without being anyone else's. */
const INSTANCE_LEFTOVERS = ['instance.json.tmp'];

/** Resolves when a stop signal arrives. */
function shutdownSignal(): Promise<string> {
  return new Promise((resolve) => {
    for (const signal of STOP_SIGNALS) process.once(signal, () => resolve(signal));
    // what reads its output went away (`ops start --json | head -1`): stopped as by a signal, cleanly,
    // rather than dying of the failed write with its servers recorded as running
    process.stdout.on('error', () => resolve('stdout closed'));
  });
}

/** PORT, the API's port: 3000 when unset. */
function portFromEnv(): number {
  const value = process.env['PORT'] || '3000';
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) {
    throw new Error(`PORT must be a port number from 1 to 65535, got "${value}"`);
  }
  return port;
}

async function portIsFree(port: number): Promise<boolean> {
  return (await freePort(port)) === port;
}

/**
 * Keys a newcomer can try right away on the local chain; created on its first start and shown again on
 * later ones while the database still takes them (not after a revoke, a rotation, a disabled partner, or
 * a start against another DATABASE_URL: then a new one is made, of that key alone). Never on a real chain:
 * the partner key would spend the operator's funds, and the state file keeps the keys in plain text.
 */
async function demoKeys(databaseUrl: string, dir: string): Promise<{ apiKey: string; partnerKey: string }> {
  const state = readState(dir);
  const issued = await withAccountsDatabase(databaseUrl, async (dataSource) => {
    const keys = new ApiKeysService(dataSource, keyPrefix());
    const partners = new PartnersService(dataSource, keyPrefix());
    const [apiKey, partner] = await Promise.all([
      state.demoApiKey ? keys.findByKey(state.demoApiKey) : null,
      state.demoPartnerKey ? partners.findByKey(state.demoPartnerKey) : null,
    ]);
    return {
      apiKey:
        apiKey?.revokedAt === null && state.demoApiKey
          ? state.demoApiKey
          : (await keys.create({ name: 'demo key (ops start)', environment: 'live' })).key,
      partnerKey:
        partner?.active && state.demoPartnerKey
          ? state.demoPartnerKey
          : (await partners.create({ name: 'demo partner (ops start)', quantity: 100, perWalletMax: 2 })).key,
    };
  });
  writeState({ demoApiKey: issued.apiKey, demoPartnerKey: issued.partnerKey }, dir);
  return issued;
}

/**
 * `ops start`: the whole pipeline on one machine. Every piece that is not configured runs embedded:
 * anvil with the simulated lottery (no RPC_URL), Postgres from npm (no DATABASE_URL) holding the event
 * log too (no KAFKA_BROKERS), in-memory rate limits and purchase jobs (no REDIS_URL).
 */
export async function runStart(o: StartOptions): Promise<void> {
  const dir = dataDir();
  refuseAForeignFolder(dir);
  const settings = await checkedSettings(o, dir);
  const run = await beginStart(o, dir);

  try {
    const chain = await startChain(o, run, settings.externalChain);
    recordChain(dir, chain);
    if (o.chainOnly) return await serveChainOnly(o, run, chain);

    if (run.settingUp.aborted) return run.out.sayStopping(await run.stopped);
    const database = await openDatabase(run);
    const foldedUnder = await migrateDatabase(database.url, settings.readSchema);
    const keys = chain.local ? await demoKeys(database.url, dir) : { apiKey: null, partnerKey: null };
    if (run.settingUp.aborted) return run.out.sayStopping(await run.stopped);

    const apps = await startApps(run, chain.target, database.url, settings.apiPort);
    // with --json, all of this is in the "ready" event, once the API answers
    const instance = instanceSummary(run, apps, chain.target, database, keys);
    if (!o.json) run.out.say(instanceBanner(instance));
    await replayUnderNewFoldRules(run, apps, foldedUnder, {
      url: database.url,
      schema: settings.readSchema,
      chainId: chain.target.chainId,
    });
    await announceReadyThenGoLive(o, run, apps, instance, chain.local);
    // an app given up on ends the start with its error (after the cleanup below)
    run.out.sayStopping(await Promise.race([run.stopped, apps.supervisor.failed]));
  } catch (error) {
    await sayStoppedOrRethrow(run, error);
  } finally {
    await cleanUp(run);
    writeState({ pids: {} }, dir);
  }
}

/**
 * `ops reset` removes a folder holding instance.json: a start must not make a folder of other files one.
 * Not other files: the record's temporary file a crash left before its rename. (A volume's root, with its
 * lost+found, is refused: reset could not remove it.)
 */
function refuseAForeignFolder(dir: string): void {
  const foreign = existsSync(dir) ? readdirSync(dir).filter((name) => !INSTANCE_LEFTOVERS.includes(name)) : [];
  if (foreign.length > 0 && !existsSync(statePath(dir))) {
    throw new Error(
      `${dir} holds files and no instance.json: it is not an embedded instance's data folder; ` +
        'set DATA_DIR to a new or empty folder',
    );
  }
}

interface StartSettings {
  apiPort: number;
  readSchema: string;
  /** RPC_URL's chain; unset: the local one. */
  externalChain: ChainTarget | undefined;
}

/** The settings, checked before anything is written: a refused start leaves no state behind. */
async function checkedSettings(o: StartOptions, dir: string): Promise<StartSettings> {
  if (!o.chainOnly && (o.deploymentEnv !== undefined || o.advertisedRpcUrl !== undefined)) {
    throw new Error('--deployment-env and --advertised-rpc-url describe the chain --chain-only runs: add --chain-only');
  }
  // written once the chain is deployed and its history simulated: a path that cannot take it is told now
  if (o.deploymentEnv !== undefined) refuseUnwritableFile(o.deploymentEnv, '--deployment-env');
  const apiPort = portFromEnv();
  const readSchema = loadReadSchema();
  const externalChain = process.env['RPC_URL'] ? externalChainTarget(process.env) : undefined;
  if (startIsRunning(dir)) {
    throw new Error(
      `an instance already runs from ${dir} (${liveProcesses(dir).join(', ')}): stop it, or set DATA_DIR to another folder`,
    );
  }
  if (!o.chainOnly && !(await portIsFree(apiPort))) {
    throw new Error(`port ${apiPort} is in use: stop what runs there or set PORT`);
  }
  return { apiPort, readSchema, externalChain };
}

function refuseUnwritableFile(path: string, option: string): void {
  const folder = dirname(resolve(path));
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new Error(`${option} ${path}: its folder ${folder} does not exist or cannot be written`);
  }
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) throw new Error(`${option} ${path} is a folder, not a file`);
  try {
    accessSync(path, constants.W_OK);
  } catch {
    throw new Error(`${option} ${path} cannot be written`);
  }
}

/** What the steps of one start share. */
interface StartRun {
  dir: string;
  logsDir: string;
  logger: Logger;
  out: StartOutput;
  /** Resolves with what stopped the start: a signal's name, or `stdout closed`. */
  stopped: Promise<string>;
  settingUp: AbortSignal;
  startedAt: number;
  /** What undoes each step that ran, in the order they ran. */
  cleanups: (() => Promise<void>)[];
}

/** Takes the data folder for this start, from whatever an earlier one left there. */
async function beginStart(o: StartOptions, dir: string): Promise<StartRun> {
  // an earlier start killed without its cleanup (kill -9, out of memory) left its servers running
  const stoppedLeftovers = await stopLeftServers(dir);
  // recorded before anything else, so that \`ops reset\` refuses from the first moment of a start
  writeState({ pids: { ops: process.pid } }, dir);
  const logsDir = join(dir, 'logs');
  mkdirSync(logsDir, { recursive: true });
  const logger = createCliLogger('ops');
  const out = startOutput(o.json ?? false);
  const stopped = shutdownSignal();
  if (stoppedLeftovers.length > 0)
    out.say(`stopped what an earlier start left running: ${stoppedLeftovers.join(', ')}`);
  // Ctrl-C while setting up: the history being written is given up at once; a shorter step (Postgres,
  // migrations) finishes, and nothing after it starts.
  const settingUp = new AbortController();
  void stopped.then(() => settingUp.abort());
  return { dir, logsDir, logger, out, stopped, settingUp: settingUp.signal, startedAt: Date.now(), cleanups: [] };
}

/**
 * The live simulator funds its wallets before it acts, waiting for receipts: a stop meanwhile is not
 * kept waiting for them (the chain's own stop, in the cleanup, ends them; LocalChain.stopLive drops
 * the simulator once it is made). Its failure before a stop is the start's.
 */
function untilStopped(run: StartRun, starting: Promise<void> | undefined): Promise<void> {
  return Promise.race([starting ?? Promise.resolve(), run.stopped.then(() => undefined)]);
}

/** Aborted by the stop, or by an app given up on: waiting on the apps is then over. */
function abortedOnStopOrFailure(run: StartRun, supervisor: ProcessSupervisor): AbortSignal {
  const ended = new AbortController();
  void run.stopped.then(() => ended.abort());
  supervisor.failed.catch(() => ended.abort());
  return ended.signal;
}

interface StartedChain {
  target: ChainTarget;
  /** anvil with the simulated lottery; unset when RPC_URL names the chain. */
  local: LocalChain | undefined;
}

async function startChain(
  o: StartOptions,
  run: StartRun,
  externalChain: ChainTarget | undefined,
): Promise<StartedChain> {
  if (externalChain) return { target: externalChain, local: undefined };
  const localChain = await startLocalChain({
    dir: run.dir,
    host: o.host,
    rounds: o.rounds,
    ticketsPerRound: o.ticketsPerRound,
    purchaseEverySeconds: o.purchaseEvery,
    drawEverySeconds: o.drawEvery,
    live: o.live,
    seed: o.seed,
    say: run.out.say,
    logger: run.logger,
    signal: run.settingUp,
  });
  run.cleanups.push(() => localChain.stop());
  // Ctrl-C reaches anvil too (the process group): the simulator stops at once, not after the apps
  // (it would go on failing against the stopped chain meanwhile, its last action waiting for a receipt)
  void run.stopped.then(() => localChain.stopLive());
  return { target: localChainTarget(localChain.rpcUrl, localChain.deployment), local: localChain };
}

function recordChain(dir: string, chain: StartedChain): void {
  // status, replay and reindex then find this chain without its variables (instance.json is 0600: an
  // RPC URL may hold a provider's key)
  writeState(
    {
      chainId: chain.target.chainId,
      deployBlock: chain.target.startBlock,
      contracts: { ...chain.target.contracts },
      rpcUrl: chain.local ? undefined : chain.target.rpcUrl,
    },
    dir,
  );
}

/** --chain-only: the chain and its simulator for compose's other services, until the stop. */
async function serveChainOnly(o: StartOptions, run: StartRun, chain: StartedChain): Promise<void> {
  const rpcUrl = o.advertisedRpcUrl ?? chain.target.rpcUrl;
  // it holds the operator's private key
  if (o.deploymentEnv) {
    // it holds the operator's key: never readable by others, also not while it is written, nor when
    // it was there before, more open (writeFileSync keeps an existing file's mode)
    if (existsSync(o.deploymentEnv)) chmodSync(o.deploymentEnv, 0o600);
    writeFileSync(o.deploymentEnv, deploymentEnvFile(chain.target, rpcUrl), { mode: 0o600 });
  }
  if (o.json) run.out.emit('ready', { rpcUrl, chainId: chain.target.chainId });
  else run.out.say(`chain ready: ${rpcUrl} (chain id ${chain.target.chainId})`);
  await untilStopped(run, chain.local?.startLive(o.json ? run.out.sayChain : run.out.say));
  run.out.sayStopping(await run.stopped);
}

interface Database {
  url: string;
  /** The data folder's own Postgres; unset with DATABASE_URL. */
  embedded: EmbeddedDatabase | undefined;
}

async function openDatabase(run: StartRun): Promise<Database> {
  const url = process.env['DATABASE_URL'];
  if (url) return { url, embedded: undefined };
  const state = readState(run.dir);
  const port = await freePort(state.postgresPort ?? 54329);
  // kept before the cluster is made with it: a start stopped in between finds it next time
  const password = clusterPassword(run.dir, state.postgresPassword);
  writeState({ postgresPassword: password }, run.dir);
  const embedded = await startEmbeddedPostgres(run.dir, port, password);
  writeState({ postgresPort: port }, run.dir);
  run.cleanups.push(() => embedded.stop());
  return { url: embedded.url, embedded };
}

/** Migrates the database; the fold rules its read models were built under (null: none folded yet). */
async function migrateDatabase(url: string, readSchema: string): Promise<number | null> {
  await migrateAll(url, readSchema);
  const foldedUnder = await foldRulesOf(url, readSchema);
  if (foldedUnder !== null && isNewerFoldRules(foldedUnder)) {
    // its projector would wait for a replay, and a replay by this version would undo the newer one's
    throw new Error(
      `the read models in "${readSchema}" were built by a newer version (fold rules ${foldedUnder}, this one ` +
        `folds ${FOLD_RULES_VERSION}): start that version, or rebuild them under this one with \`npm run ops -- replay\``,
    );
  }
  return foldedUnder;
}

interface RunningApps {
  supervisor: ProcessSupervisor;
  apiPort: number;
  /** The API as the banner and the "ready" message show it. */
  apiUrl: string;
  metricsPorts: { indexer: number; projector: number };
  eventLog: EventLogConfig['kind'];
  /** The log the indexer appends to. */
  indexerLog: EventLogConfig;
}

/** The apps under a supervisor, their ports and log recorded for the other commands. */
async function startApps(
  run: StartRun,
  chain: ChainTarget,
  databaseUrl: string,
  apiPort: number,
): Promise<RunningApps> {
  const previous = readState(run.dir).metricsPorts;
  const metricsPorts = {
    indexer: await freePort(previous?.indexer ?? 9464),
    projector: await freePort(previous?.projector ?? 9465),
  };
  const env = appEnvironments({
    chain,
    databaseUrl,
    kafkaBrokers: process.env['KAFKA_BROKERS'] || undefined,
    kafkaTopicPrefix: process.env['KAFKA_TOPIC_PREFIX'] || undefined,
    redisUrl: process.env['REDIS_URL'] || undefined,
    apiPort,
    metricsPorts,
  });
  const supervisor: ProcessSupervisor = new ProcessSupervisor(run.logger, () =>
    writeState({ pids: { ops: process.pid, ...supervisor.pids() } }, run.dir),
  );
  run.cleanups.push(() => supervisor.stopAll());
  void run.stopped.then(() => supervisor.stopRestarting());
  for (const app of ['indexer', 'projector', 'api'] as const) {
    supervisor.start(app, APPS[app], env[app], join(run.logsDir, `${app}.log`));
  }
  const eventLog = env.indexer['EVENT_LOG'] === 'kafka' ? 'kafka' : 'postgres';
  // read as `ops reindex` reads its own environment, so that both name one log the same
  const indexerEnv = loadPipelineEnv(appProcessEnvironment(process.env, env.indexer));
  const indexerLog = eventLogConfigFromEnv(indexerEnv, chain.chainId, databaseUrl);
  writeState({ apiPort, metricsPorts, eventLog, indexerLog: eventLogIdentity(indexerLog) }, run.dir);
  return { supervisor, apiPort, apiUrl: `http://localhost:${apiPort}`, metricsPorts, eventLog, indexerLog };
}

function instanceSummary(
  run: StartRun,
  apps: RunningApps,
  chain: ChainTarget,
  database: Database,
  keys: Pick<InstanceSummary, 'apiKey' | 'partnerKey'>,
): InstanceSummary {
  return {
    api: `${apps.apiUrl}/v1/rounds`,
    apiDocs: `${apps.apiUrl}/v1/docs`,
    freeTicketDocs: `${apps.apiUrl}/api/v1/docs`,
    apiKey: keys.apiKey,
    partnerKey: keys.partnerKey,
    rpcUrl: displayedUrl(chain.rpcUrl),
    chainId: chain.chainId,
    embeddedPostgresPort: database.embedded?.port ?? null,
    eventLog: apps.eventLog,
    logs: run.logsDir,
    data: run.dir,
  };
}

/**
 * An upgrade that changed the fold rules: the projector waits for read models built under this
 * version's, which a replay makes while the old ones serve (it then folds on by itself).
 */
async function replayUnderNewFoldRules(
  run: StartRun,
  apps: RunningApps,
  foldedUnder: number | null,
  readModels: Pick<ReplayRun, 'url' | 'schema' | 'chainId'>,
): Promise<void> {
  if (foldedUnder === null || foldedUnder === FOLD_RULES_VERSION || isNewerFoldRules(foldedUnder)) return;
  run.out.say(
    `the read models were built under fold rules ${foldedUnder}, this version folds ${FOLD_RULES_VERSION}: ` +
      'rebuilding them from the event log (as `ops replay` does), the old ones serving meanwhile',
  );
  const replaying = abortedOnStopOrFailure(run, apps.supervisor);
  try {
    await runReplay({ ...readModels, log: apps.indexerLog, signal: replaying, logger: run.logger });
  } catch (error) {
    if (error instanceof ReplayRunningError) {
      run.out.say('another replay is rebuilding them: the projector folds on once it switches them in');
    } else if (!replaying.aborted) throw error;
    // stopped, or an app given up on: told below
  }
}

/** Shows the indexing until the API is ready, says so, then runs the live simulation until the stop. */
async function announceReadyThenGoLive(
  o: StartOptions,
  run: StartRun,
  apps: RunningApps,
  instance: InstanceSummary,
  localChain: LocalChain | undefined,
): Promise<void> {
  const watching = abortedOnStopOrFailure(run, apps.supervisor);
  await waitUntilReady(
    {
      indexerMetrics: `http://127.0.0.1:${apps.metricsPorts.indexer}/metrics`,
      apiReady: `http://127.0.0.1:${apps.apiPort}/health/ready`,
    },
    new ProgressReporter('indexing', 'blocks', 'events', run.logger),
    watching,
  );
  if (watching.aborted) return;
  const seconds = Number(((Date.now() - run.startedAt) / 1000).toFixed(1));
  if (o.json) run.out.emit('ready', { seconds, ...instance });
  else run.out.say(`ready in ${seconds.toFixed(1)} s: ${apps.apiUrl}/health/ready answers 200`);
  await untilStopped(run, localChain?.startLive(run.out.sayChain));
}

/** The error that ended a step: the start's failure, thrown on, unless the stop cut the step short. */
async function sayStoppedOrRethrow(run: StartRun, error: unknown): Promise<void> {
  // A Ctrl-C reaches the whole process group: initdb, Postgres and anvil stop too, and the step that
  // used them fails. That is the stop asked for, not an error to report.
  if (!(error instanceof AbortedError) && !run.settingUp.aborted) throw error;
  // its cause in a word, not a stack: a step cut short by the stop is no failure
  if (!(error instanceof AbortedError)) {
    const cause = error instanceof Error ? error.message.split('\n')[0] : String(error);
    run.logger.info({ cause }, 'the step under way ended with the stop');
  }
  run.out.sayStopping(await run.stopped);
}

/** The last step's undoing first: the apps stop before the database and the chain they use. */
async function cleanUp(run: StartRun): Promise<void> {
  for (const step of run.cleanups.reverse())
    await step().catch((e: unknown) => run.logger.warn({ err: e }, 'stop step failed'));
}

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('run the whole pipeline; whatever is not configured runs embedded (see the README)')
    .option('--rounds <n>', 'settled rounds of simulated history on the first start', nonNegativeInt, 4)
    .option('--tickets-per-round <n>', 'tickets bought per simulated round', positiveInt, 150)
    .option('--purchase-every <seconds>', 'live simulation: seconds between purchases', positiveInt, 4)
    .option('--draw-every <seconds>', 'live simulation: seconds between draws (the drawing duration)', positiveInt, 180)
    .option('--no-live', 'no live simulation after the history')
    .option('--seed <text>', 'seed of the simulated history', 'lottery-demo')
    .option('--host <address>', 'interface anvil listens on', '127.0.0.1')
    .option('--chain-only', 'run only the local chain and its simulator (docker compose)')
    .option('--deployment-env <file>', 'with --chain-only: write the deployment as an env file here')
    .option('--advertised-rpc-url <url>', 'with --chain-only: the RPC URL other services use')
    .option(
      '--json',
      'JSON lines on stdout instead of the banner: {"event":"ready",…} with URLs, demo keys, chain and data ' +
        'folder once the API answers (with --chain-only: rpcUrl, chainId); {"event":"message"|"chain","message"}; ' +
        '{"event":"stopping","signal"}. Logs and the progress bar stay on stderr.',
    )
    .action(async (o: StartOptions) => {
      await runStart(o);
      // Everything start ran is stopped; a history given up on Ctrl-C can leave viem polling for its
      // transaction's receipt (up to 180 s), which must not keep the command alive.
      process.exit(0);
    });
}
