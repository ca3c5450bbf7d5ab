/**
 * Data API benchmark (issue 6, "Benchmark bench/api"): autocannon against `/v1/rounds`,
 * `/v1/rounds/{id}/tickets` and `/v1/wallets/{address}/tickets` of the real API on ≥ 1,000,000 tickets,
 * side by side in the same run with a minimal raw Fastify + pg server running the same SQL. Prints a
 * table, writes bench/api-results.json, its block of bench/RESULTS.md and its `api_` figures of
 * bench/results.json. `npm run bench` runs it as its last stage.
 *
 *   node --expose-gc -r ./tools/register.js bench/api/main.ts [--tickets 1000000[,10000000]] [--duration 10]
 *     [--connections 10] [--warmup 3] [--repeat 1] [--tickets-per-round 10000] [--tickets-per-wallet 20]
 *     [--max-generate-seconds 900] [--redis URL | --no-redis] [--keep] [--out DIR] [--no-write]
 *     [--paced-share 0.5] [--cpu-prof DIR] [--endpoints ROUTE[,ROUTE…]] [--rewrite-markdown]
 *
 * --cpu-prof writes a V8 CPU profile of the API process (all endpoints, warm-up included) into DIR, and
 * one of the raw server into DIR/raw;
 * --endpoints measures only the routes named (e.g. `/v1/rounds`), to profile one alone (with --no-write),
 * and may name the probes `/v1/rounds/{id}` and `/health/live`, which only it measures (see PROBES);
 * --rewrite-markdown only renders the API block of RESULTS.md again from api-results.json.
 *
 * Needs Postgres (DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/postgres): a
 * scratch database per size, dropped at the end. Redis (REDIS_URL or 127.0.0.1:6379 when it answers)
 * holds the API's rate-limit counters as in production; without it the API's in-memory store is used.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { ApiKeysService, createAccountsDataSource, migrateAccounts } from '@lottery/persistence';
import Redis from 'ioredis';
import { withClient } from '../lib/postgres';
import { settle } from '../lib/settle';
import { generateDataset, type Dataset } from './dataset';
import { hammer, type LoadOptions, type Measurement, paced as pacedLoad } from './load';
import {
  byP99,
  type EndpointResult,
  GOAL_P99_MS,
  GOAL_RATIO,
  markdownBlock,
  measurementsOf,
  printTable,
  type Results,
  type SizeResult,
  writeFlatFigures,
  writeResultsMarkdown,
} from './report';
import { processStats, ROOT, startServer, type Server } from './servers';
import { APP_NODE_FLAGS, freePorts } from '@lottery/telemetry';
import { parseFlags } from '@lottery/testing';

const SERVER_URL = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';
const READ_SCHEMA = 'lottery';
const KEY_PREFIX = 'lt';
/** createReadModelDataSource's default pool, which the API uses; the raw server gets the same. */
const POOL_SIZE = 10;
/**
 * Latency is also measured with both servers paced to this share of the API's full-speed req/s on the
 * endpoint (an operating point at half its capacity). At full speed every server queues (p99 there is
 * mostly the wait behind the other connections' requests), so only a paced load says what a request
 * costs a client.
 */
const DEFAULT_PACED_SHARE = 0.5;
/** The routes measured, in order (what --endpoints picks from; the table and RESULTS.md hold these). */
const ROUTES = {
  rounds: '/v1/rounds',
  roundTickets: '/v1/rounds/{id}/tickets',
  walletTickets: '/v1/wallets/{address}/tickets',
} as const;
/**
 * Routes measured only when --endpoints names them: they split what a request costs the API apart from
 * its rows. `/health/live` is the framework alone; `/v1/rounds/{id}` adds the API key, the rate limit,
 * one round (kept as JSON) and its ETag, a per-request cost with next to nothing per row.
 */
const PROBES = {
  round: '/v1/rounds/{id}',
  health: '/health/live',
} as const;

interface Options extends LoadOptions {
  tickets: number[];
  warmupSeconds: number;
  repeat: number;
  ticketsPerRound: number;
  ticketsPerWallet: number;
  maxGenerateSeconds: number;
  redis: string | null | 'auto';
  keep: boolean;
  outDir: string;
  write: boolean;
  cpuProfileDir: string | null;
  /** Latency is also measured paced to this share of the API's full-speed req/s (see DEFAULT_PACED_SHARE). */
  pacedShare: number;
  /** Routes to measure (all when null): to profile one endpoint alone. */
  endpoints: string[] | null;
  rewriteMarkdown: boolean;
}

const USAGE = `usage: node --expose-gc -r ./tools/register.js bench/api/main.ts [--tickets N[,N…]] [--duration S] [--connections N]
  [--warmup S] [--repeat N] [--tickets-per-round N] [--tickets-per-wallet N] [--max-generate-seconds S]
  [--redis URL | --no-redis] [--keep] [--out DIR] [--no-write] [--paced-share X] [--cpu-prof DIR]
  [--endpoints ROUTE[,ROUTE…]] [--rewrite-markdown]`;

function parseOptions(argv: readonly string[]): Options {
  const o: Options = {
    tickets: [1_000_000],
    durationSeconds: 10,
    connections: 10,
    warmupSeconds: 3,
    repeat: 1,
    ticketsPerRound: 10_000,
    ticketsPerWallet: 20,
    maxGenerateSeconds: 900,
    redis: 'auto',
    keep: false,
    outDir: join(ROOT, 'bench'),
    write: true,
    cpuProfileDir: null,
    pacedShare: DEFAULT_PACED_SHARE,
    endpoints: null,
    rewriteMarkdown: false,
  };
  const positive = (raw: string, flag: string): number => {
    const n = Number(raw.replace(/_/g, ''));
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a positive whole number\n${USAGE}`);
    return n;
  };
  parseFlags(argv, USAGE, (flag) => {
    switch (flag.name) {
      case '--tickets':
        o.tickets = flag
          .value()
          .split(',')
          .map((n) => positive(n, flag.name));
        break;
      case '--duration':
        o.durationSeconds = flag.count(1);
        break;
      case '--connections':
        o.connections = flag.count(1);
        break;
      case '--warmup':
        o.warmupSeconds = Number(flag.value());
        break;
      case '--repeat':
        o.repeat = flag.count(1);
        break;
      case '--tickets-per-round':
        o.ticketsPerRound = flag.count(1);
        break;
      case '--tickets-per-wallet':
        o.ticketsPerWallet = flag.count(1);
        break;
      case '--max-generate-seconds':
        o.maxGenerateSeconds = flag.count(1);
        break;
      case '--redis':
        o.redis = flag.value();
        break;
      case '--no-redis':
        o.redis = null;
        break;
      case '--keep':
        o.keep = true;
        break;
      case '--out':
        o.outDir = flag.value();
        break;
      case '--no-write':
        o.write = false;
        break;
      case '--cpu-prof':
        o.cpuProfileDir = resolve(flag.value());
        break;
      case '--paced-share': {
        const share = Number(flag.value());
        if (!(share > 0 && share <= 1)) throw new Error(`--paced-share needs a number in (0, 1]\n${USAGE}`);
        o.pacedShare = share;
        break;
      }
      case '--endpoints': {
        o.endpoints = flag.value().split(',');
        const known: string[] = [...Object.values(ROUTES), ...Object.values(PROBES)];
        const unknown = o.endpoints.filter((route) => !known.includes(route));
        if (unknown.length > 0)
          throw new Error(`--endpoints: no route ${unknown.join(', ')} (routes: ${known.join(', ')})`);
        break;
      }
      case '--rewrite-markdown':
        o.rewriteMarkdown = true;
        break;
      default:
        return false;
    }
    return true;
  });
  if (o.endpoints !== null && o.write) throw new Error('--endpoints measures part of the table: add --no-write');
  if (o.ticketsPerRound >= 1_000_000) throw new Error('--tickets-per-round must be below 1,000,000 (block numbering)');
  return o;
}

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const load = () => Math.round(loadavg()[0] * 100) / 100;
const log = (message: string) => console.log(`[bench:api ${new Date().toISOString().slice(11, 19)}] ${message}`);

interface Endpoint {
  name: string;
  route: string;
  paths: string[];
}

/** The endpoint's first path from both servers, which must both answer 200. */
async function bothAnswers<B>(api: Server, raw: Server, endpoint: Endpoint, headers: Record<string, string>) {
  const path = endpoint.paths[0];
  const get = async (url: string, h: Record<string, string>) => {
    const res = await fetch(url, { headers: h });
    return { status: res.status, body: (await res.json()) as B };
  };
  const [a, r] = await Promise.all([get(api.baseUrl + path, headers), get(raw.baseUrl + path, {})]);
  if (a.status !== 200 || r.status !== 200) {
    throw new Error(`${path}: API answered ${a.status}, raw ${r.status}: ${JSON.stringify(a.body).slice(0, 500)}`);
  }
  return { api: a.body, raw: r.body };
}

/** A few ids of the first page must be the same from both servers: they run the same statements. */
async function checkSameRows(api: Server, raw: Server, endpoint: Endpoint, headers: Record<string, string>) {
  type Page = { data?: { id: unknown }[] };
  const bodies = await bothAnswers<Page>(api, raw, endpoint, headers);
  const ids = (body: Page) => (body.data ?? []).map((row) => String(row.id)).join(',');
  if (ids(bodies.api) !== ids(bodies.raw) || ids(bodies.api) === '') {
    throw new Error(
      `${endpoint.paths[0]}: the API and the raw server returned different rows:\n${ids(bodies.api)}\n${ids(bodies.raw)}`,
    );
  }
  return bodies.api.data?.length ?? 0;
}

/** A probe must answer from both servers, with the same round where it is one. */
async function checkSameResource(api: Server, raw: Server, endpoint: Endpoint, headers: Record<string, string>) {
  const bodies = await bothAnswers<{ id?: unknown }>(api, raw, endpoint, headers);
  if (String(bodies.api.id) !== String(bodies.raw.id)) {
    throw new Error(`${endpoint.paths[0]}: the API answered id ${bodies.api.id}, the raw server ${bodies.raw.id}`);
  }
}

/** The median run by `by` (the lower middle of an even count). */
const median = (runs: Measurement[], by: (m: Measurement) => number): Measurement =>
  [...runs].sort((x, y) => by(x) - by(y))[Math.floor((runs.length - 1) / 2)];

/**
 * `repeat` runs of each server, alternating which goes first so neither always runs on the warmer (or
 * busier) machine.
 */
async function alternating(
  repeat: number,
  run: (which: 'api' | 'raw') => Promise<Measurement>,
): Promise<{ raw: Measurement[]; api: Measurement[] }> {
  const runs: { raw: Measurement[]; api: Measurement[] } = { raw: [], api: [] };
  for (let rep = 0; rep < repeat; rep++) {
    for (const which of rep % 2 === 0 ? (['raw', 'api'] as const) : (['api', 'raw'] as const)) {
      runs[which].push(await run(which));
    }
  }
  return runs;
}

async function measureSize(
  tickets: number,
  options: Options,
  redisUrl: string | null,
  redisPrefix: string,
  cleanups: (() => Promise<void>)[],
): Promise<SizeResult> {
  const dbName = `bench_api_${process.pid}_${tickets}`;
  await withClient(SERVER_URL, (c) => c.query(`CREATE DATABASE "${dbName}"`));
  const dbUrl = new URL(SERVER_URL);
  dbUrl.pathname = `/${dbName}`;
  const url = dbUrl.toString();
  const dropDatabase = async () => {
    if (options.keep) return log(`kept database ${dbName}`);
    await withClient(SERVER_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
    log(`dropped database ${dbName}`);
  };
  cleanups.push(dropDatabase);
  const servers: Server[] = [];
  cleanups.push(() => Promise.all(servers.map((s) => s.stop())).then(() => undefined));
  const loadAtStart = load();

  log(`generating ${tickets.toLocaleString('en-US')} tickets into ${dbName} …`);
  const dataset: Dataset = await generateDataset(url, READ_SCHEMA, {
    tickets,
    ticketsPerRound: options.ticketsPerRound,
    ticketsPerWallet: options.ticketsPerWallet,
  });
  log(`data set ready in ${dataset.generateSeconds} s (${dataset.sizeMb} MB): ${JSON.stringify(dataset.timings)}`);
  // the generation's writes are flushed now, not by a checkpoint in the middle of a measurement
  log(`data set ${await settle(url)}`);

  // a key of the API's own accounts schema, with limits no run reaches (as `ops api-keys create` makes it)
  const accounts = createAccountsDataSource({ url });
  await accounts.initialize();
  let key: string;
  try {
    await migrateAccounts(accounts);
    const issued = await new ApiKeysService(accounts, KEY_PREFIX).create({
      name: 'bench/api',
      environment: 'live',
      perMinute: 2_000_000_000,
      perDay: 2_000_000_000,
    });
    key = issued.key;
  } finally {
    await accounts.destroy();
  }
  const headers = { authorization: `Bearer ${key}` };

  const [apiPort, rawPort] = await freePorts(2);
  const api = await startServer(
    'api',
    'apps/api/src/main.ts',
    {
      NODE_ENV: 'production',
      DATABASE_URL: url,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      READ_SCHEMA,
      KEY_PREFIX,
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redisPrefix } : {}),
    },
    apiPort,
    '/v1/rounds',
    headers,
    options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [],
  );
  servers.push(api);
  const raw = await startServer(
    'raw',
    'bench/api/raw-server.ts',
    { NODE_ENV: 'production', DATABASE_URL: url, PORT: String(rawPort), READ_SCHEMA, POOL_SIZE: String(POOL_SIZE) },
    rawPort,
    '/v1/rounds',
    {},
    // the API's V8 flags (its heap policy), so the two differ only in what they do per request
    [
      ...(APP_NODE_FLAGS['api'] ?? []),
      ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(options.cpuProfileDir, 'raw')}`] : []),
    ],
  );
  servers.push(raw);

  const endpoints: Endpoint[] = [
    { name: 'rounds', route: ROUTES.rounds, paths: ['/v1/rounds'] },
    {
      name: 'roundTickets',
      route: ROUTES.roundTickets,
      paths: dataset.settledRoundIds.map((id) => `/v1/rounds/${id}/tickets`),
    },
    {
      name: 'walletTickets',
      route: ROUTES.walletTickets,
      paths: dataset.wallets.map((address) => `/v1/wallets/${address}/tickets`),
    },
  ].filter((e) => options.endpoints === null || options.endpoints.includes(e.route));
  const probes: Endpoint[] = [
    { name: 'round', route: PROBES.round, paths: dataset.settledRoundIds.map((id) => `/v1/rounds/${id}`) },
    { name: 'health', route: PROBES.health, paths: ['/health/live'] },
  ].filter((e) => options.endpoints?.includes(e.route));
  for (const e of endpoints) {
    const rows = await checkSameRows(api, raw, e, headers);
    log(`${e.route}: same ${rows} rows from both servers on ${e.paths[0]}`);
  }
  for (const e of probes) {
    await checkSameResource(api, raw, e, headers);
    endpoints.push(e);
  }

  // warm-up: JIT, connection pools and Postgres's cache, for every endpoint on both servers
  if (options.warmupSeconds > 0) {
    for (const e of endpoints) {
      for (const [server, h] of [
        [raw, {}],
        [api, headers],
      ] as const) {
        await hammer(server, e.paths, h, { connections: options.connections, durationSeconds: options.warmupSeconds });
      }
    }
  }
  const rssStart = { api: processStats(api.child.pid)?.rssMb ?? NaN, raw: processStats(raw.child.pid)?.rssMb ?? NaN };

  const results: EndpointResult[] = [];
  for (const e of endpoints) {
    const runs = await alternating(options.repeat, async (which) => {
      const m = await hammer(which === 'api' ? api : raw, e.paths, which === 'api' ? headers : {}, options);
      log(
        `${e.route} ${which.padEnd(3)}: ${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, ` +
          `${m.serverCpuUsPerRequest} µs CPU/req, RSS ${m.rssPeakMb} MB` +
          (m.non2xx + m.errors + m.timeouts > 0
            ? `, ${m.non2xx} non-2xx ${m.errors} errors ${m.timeouts} timeouts`
            : ''),
      );
      return m;
    });
    const a = median(runs.api, (m) => m.rps);
    const r = median(runs.raw, (m) => m.rps);
    // A paced p99 hangs on the few slowest requests of one run: one stall of the machine moves it, so it
    // is repeated as often as the full-speed runs and judged on the median run.
    const rate = Math.max(1, Math.round(a.rps * options.pacedShare));
    const pacedRuns = await alternating(options.repeat, async (which) => {
      const m = await pacedLoad(which === 'api' ? api : raw, e.paths, which === 'api' ? headers : {}, rate, options);
      log(
        `${e.route} ${which.padEnd(3)} paced to ${rate} req/s: p50 ${m.p50} ms, p99 ${m.p99} ms ` +
          `(load generator ${m.clientCpuUsPerRequest} µs CPU/req)`,
      );
      return m;
    });
    const paced = { rate, api: median(pacedRuns.api, byP99), raw: median(pacedRuns.raw, byP99) };
    const ratio = Math.round((a.rps / r.rps) * 1000) / 1000;
    results.push({
      name: e.name,
      route: e.route,
      distinctPaths: e.paths.length,
      api: a,
      raw: r,
      runs,
      paced,
      pacedRuns,
      ratio,
      meetsRatio: ratio >= GOAL_RATIO,
      meetsP99: paced.api.p99 < GOAL_P99_MS,
    });
  }
  const all = (which: 'api' | 'raw') => results.flatMap((e) => measurementsOf(e, which));
  const rss = (which: 'api' | 'raw') => ({
    startMb: Math.round(rssStart[which] * 10) / 10,
    peakMb: Math.max(...all(which).map((m) => m.rssPeakMb)),
    endMb: all(which).at(-1)?.rssEndMb ?? NaN,
  });
  const size: SizeResult = {
    tickets,
    dataset: {
      shape: dataset.shape,
      rows: dataset.rows,
      timings: dataset.timings,
      generateSeconds: dataset.generateSeconds,
      sizeMb: dataset.sizeMb,
    },
    endpoints: results,
    rss: { api: rss('api'), raw: rss('raw') },
    loadAverage: { start: loadAtStart, end: load() },
  };
  await Promise.all(servers.map((s) => s.stop()));
  servers.length = 0;
  await dropDatabase();
  cleanups.splice(cleanups.indexOf(dropDatabase), 1);
  return size;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.rewriteMarkdown) {
    const saved = JSON.parse(readFileSync(join(options.outDir, 'api-results.json'), 'utf8')) as Results;
    writeResultsMarkdown(join(options.outDir, 'RESULTS.md'), markdownBlock(saved));
    return log(`rewrote the API block of ${join(options.outDir, 'RESULTS.md')} from api-results.json`);
  }
  let redisUrl: string | null = null;
  if (options.redis === 'auto') {
    const candidate = process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';
    redisUrl = (await reachable(candidate)) ? candidate : null;
  } else {
    redisUrl = options.redis;
  }
  const redisPrefix = `bench-api-${process.pid}:`;
  const postgres = await withClient(SERVER_URL, async (c) => {
    const { rows } = await c.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
    return rows[0]?.v ?? 'unknown';
  });
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    // not a checkout
  }
  const results: Results = {
    benchmark: 'api',
    date: new Date().toISOString(),
    commit,
    machine: {
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      cores: cpus().length,
      ramGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      node: process.version,
      postgres,
      os: `${platform()} ${release()}`,
    },
    options: {
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      repeat: options.repeat,
      pacedShare: options.pacedShare,
      rateLimitStore: redisUrl ? 'Redis' : 'in-memory',
      apiPoolSize: POOL_SIZE,
    },
    sizes: [],
    skipped: [],
  };
  log(`rate limits in ${redisUrl ? `Redis (${redisUrl})` : 'memory (no Redis reachable)'}; load average ${load()}`);

  const cleanups: (() => Promise<void>)[] = [];
  const cleanUp = async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch((e: unknown) => console.error(e));
    if (redisUrl) {
      // the API's counters of this run (their day windows would otherwise linger for a day)
      const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await redis.connect();
        const keys = await redis.keys(`${redisPrefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      } catch (error) {
        console.error('could not clear the Redis counters:', error);
      } finally {
        redis.disconnect();
      }
    }
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));

  try {
    let previous: { tickets: number; seconds: number } | null = null;
    for (const tickets of options.tickets) {
      if (previous) {
        const estimate = Math.round((previous.seconds * tickets) / previous.tickets);
        if (estimate > options.maxGenerateSeconds) {
          const reason =
            `generating it would take about ${estimate} s here (${previous.seconds} s for ` +
            `${previous.tickets.toLocaleString('en-US')}), over --max-generate-seconds ${options.maxGenerateSeconds}.`;
          log(`skipping ${tickets.toLocaleString('en-US')} tickets: ${reason}`);
          results.skipped.push({ tickets, reason });
          continue;
        }
      }
      const size = await measureSize(tickets, options, redisUrl, redisPrefix, cleanups);
      results.sizes.push(size);
      previous = { tickets, seconds: size.dataset.generateSeconds };
      printTable(size);
    }
  } finally {
    await cleanUp();
  }

  if (options.write) {
    writeFileSync(join(options.outDir, 'api-results.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeResultsMarkdown(join(options.outDir, 'RESULTS.md'), markdownBlock(results));
    writeFlatFigures(join(options.outDir, 'results.json'), results);
    log(
      `wrote ${join(options.outDir, 'api-results.json')}, the API block of ${join(options.outDir, 'RESULTS.md')} ` +
        `and the api_ figures of ${join(options.outDir, 'results.json')}`,
    );
  }
  const failed = results.sizes.some((s) =>
    s.endpoints.some((e) => measurementsOf(e).some((m) => m.non2xx + m.errors + m.timeouts > 0)),
  );
  if (failed) {
    console.error('some requests failed (non-2xx, errors or timeouts): the figures are not valid');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
