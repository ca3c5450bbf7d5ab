import { blockMarkers, fmt, pct as share, writeFigures, writeMarkedBlock } from '@lottery/testing';
import { mean } from '../lib/stats';
import type { Dataset } from './dataset';
import type { Measurement } from './load';

export const GOAL_RATIO = 0.7;
export const GOAL_P99_MS = 20;

export interface EndpointResult {
  name: string;
  /** The path pattern and how many distinct paths the load walked. */
  route: string;
  distinctPaths: number;
  raw: Measurement;
  api: Measurement;
  /** Every repetition, in the order run (the figures above are the median repetition by req/s). */
  runs: { raw: Measurement[]; api: Measurement[] };
  /**
   * Both servers paced to `rate` req/s (a share of the API's full-speed req/s): latency below saturation.
   * The median repetition by p99.
   */
  paced: { rate: number; raw: Measurement; api: Measurement };
  /** Every paced repetition, in the order run. */
  pacedRuns: { raw: Measurement[]; api: Measurement[] };
  /** API req/s ÷ raw req/s. */
  ratio: number;
  meetsRatio: boolean;
  /** Judged paced. */
  meetsP99: boolean;
}

/** Every measurement of an endpoint (of one server, or both): full-speed and paced repetitions. */
export function measurementsOf(e: EndpointResult, which?: 'api' | 'raw'): Measurement[] {
  const of = (w: 'api' | 'raw') => [...e.runs[w], ...e.pacedRuns[w]];
  return which ? of(which) : [...of('api'), ...of('raw')];
}

export interface SizeResult {
  tickets: number;
  dataset: Omit<Dataset, 'settledRoundIds' | 'wallets'>;
  endpoints: EndpointResult[];
  /** RSS (MB) of each server process: idle after start-up and warm-up, and the peak under load. */
  rss: {
    api: { startMb: number; peakMb: number; endMb: number };
    raw: { startMb: number; peakMb: number; endMb: number };
  };
  loadAverage: { start: number; end: number };
}

export interface Results {
  benchmark: 'api';
  date: string;
  commit: string;
  machine: { cpuModel: string; cores: number; ramGb: number; node: string; postgres: string; os: string };
  options: {
    connections: number;
    durationSeconds: number;
    warmupSeconds: number;
    repeat: number;
    pacedShare: number;
    rateLimitStore: string;
    apiPoolSize: number;
  };
  sizes: SizeResult[];
  skipped: { tickets: number; reason: string }[];
}

const pct = (x: number) => share(x, 0);
const { begin: BEGIN, end: END } = blockMarkers('bench:api');
/** A run's paced p99: what the paced median is taken by and what RESULTS.md lists of every run. */
export const byP99 = (m: Measurement) => m.p99;
const spread = (runs: Measurement[], of: (m: Measurement) => number = (m) => m.rps, digits = 0) =>
  runs.map((m) => fmt(of(m), digits)).join(', ');

export function printTable(size: SizeResult): void {
  const rows = size.endpoints.map((e) => ({
    endpoint: e.route,
    'API req/s': fmt(e.api.rps),
    'raw req/s': fmt(e.raw.rps),
    ratio: pct(e.ratio),
    'API p50 ms': fmt(e.api.p50, 2),
    'API p99 ms': fmt(e.api.p99, 2),
    'raw p50 ms': fmt(e.raw.p50, 2),
    'raw p99 ms': fmt(e.raw.p99, 2),
    'paced req/s': fmt(e.paced.rate),
    'paced p99 ms API / raw': `${fmt(e.paced.api.p99, 2)} / ${fmt(e.paced.raw.p99, 2)}`,
    'API CPU µs/req': fmt(e.api.serverCpuUsPerRequest),
    'raw CPU µs/req': fmt(e.raw.serverCpuUsPerRequest),
    goals: `${e.meetsRatio ? '✓' : '✗'} ratio  ${e.meetsP99 ? '✓' : '✗'} p99`,
  }));
  console.log(`\n${fmt(size.tickets)} tickets:`);
  console.table(rows);
  console.log(
    `RSS MB  API: ${fmt(size.rss.api.startMb)} idle → ${fmt(size.rss.api.peakMb)} peak   ` +
      `raw: ${fmt(size.rss.raw.startMb)} idle → ${fmt(size.rss.raw.peakMb)} peak`,
  );
}

function sizeSection(size: SizeResult): string {
  const d = size.dataset;
  const lines = [
    `### ${fmt(size.tickets)} tickets`,
    '',
    `Data set: ${fmt(d.rows.tickets)} tickets in ${fmt(d.rows.rounds)} rounds (${fmt(d.shape.ticketsPerRound)} per round, ` +
      `the last one open), ${fmt(d.rows.walletStats)} wallets (~${fmt(d.shape.ticketsPerWallet)} tickets each), ` +
      `${fmt(d.rows.outcomes)} outcomes; ${fmt(d.sizeMb)} MB on disk; generated in ${fmt(d.generateSeconds, 1)} s ` +
      `(${Object.entries(d.timings)
        .map(([k, v]) => `${k} ${fmt(v, 1)}`)
        .join(
          ', ',
        )}). Load average ${fmt(size.loadAverage.start, 2)} at the start, ${fmt(size.loadAverage.end, 2)} at the end.`,
    '',
    `| endpoint | API req/s | raw req/s | API ÷ raw | API p50 | API p99 | raw p50 | raw p99 | API CPU/req | raw CPU/req | req/s of every run, API / raw | paced req/s | paced API p50 / p99 | paced raw p50 / p99 | paced p99 of every run, API / raw | goals (≥ 70 %; p99 < 20 ms paced) |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | --- |',
    ...size.endpoints.map(
      (e) =>
        `| \`${e.route}\` | ${fmt(e.api.rps)} | ${fmt(e.raw.rps)} | ${pct(e.ratio)} | ${fmt(e.api.p50, 2)} ms | ` +
        `${fmt(e.api.p99, 2)} ms | ${fmt(e.raw.p50, 2)} ms | ${fmt(e.raw.p99, 2)} ms | ${fmt(e.api.serverCpuUsPerRequest)} µs | ` +
        `${fmt(e.raw.serverCpuUsPerRequest)} µs | ${spread(e.runs.api)} / ${spread(e.runs.raw)} | ` +
        `${fmt(e.paced.rate)} | ${fmt(e.paced.api.p50, 2)} / ${fmt(e.paced.api.p99, 2)} ms | ${fmt(e.paced.raw.p50, 2)} / ${fmt(e.paced.raw.p99, 2)} ms | ` +
        `${spread(e.pacedRuns.api, byP99, 1)} / ${spread(e.pacedRuns.raw, byP99, 1)} ms | ` +
        `${e.meetsRatio ? 'ratio ✓' : 'ratio ✗'}, ${e.meetsP99 ? 'p99 ✓' : 'p99 ✗'} |`,
    ),
    '',
    `RSS: API ${fmt(size.rss.api.startMb)} MB after start-up and warm-up, ${fmt(size.rss.api.peakMb)} MB peak under load ` +
      `(raw server ${fmt(size.rss.raw.startMb)} → ${fmt(size.rss.raw.peakMb)} MB).`,
  ];
  const failures = size.endpoints.flatMap((e) =>
    measurementsOf(e)
      .filter((m) => m.non2xx + m.errors + m.timeouts > 0)
      .map(() => e.route),
  );
  if (failures.length > 0)
    lines.push('', `**Non-2xx responses, errors or timeouts in: ${[...new Set(failures)].join(', ')}**`);
  return lines.join('\n');
}

export function markdownBlock(r: Results): string {
  const o = r.options;
  return [
    BEGIN,
    '## API',
    '',
    `Data API \`/v1\` (apps/api, NestJS on Fastify, run as \`npm start\` runs it) against a minimal raw Fastify + pg ` +
      `server running the same SQL statements (bench/api/raw-server.ts, the texts of read-model-sql.ts). ` +
      `\`npm run bench:api\` (\`node --expose-gc -r ./tools/register.js bench/api/main.ts\`), ${r.date.slice(0, 10)}, commit ${r.commit}; ` +
      `${r.machine.cores} × ${r.machine.cpuModel}, ${r.machine.ramGb} GB, Node ${r.machine.node}, PostgreSQL ${r.machine.postgres}.`,
    '',
    `autocannon, ${o.connections} connections × ${o.durationSeconds} s per endpoint and server after ${o.warmupSeconds} s of ` +
      `warm-up (each data set is first flushed by a CHECKPOINT, and the machine left until it is idle), ${o.repeat} repetition(s) alternating the order (median by req/s shown); both servers, Postgres and ` +
      `autocannon share the machine. The API authenticates every request with a key (own limits high enough ` +
      `never to answer 429) and counts it in the ${o.rateLimitStore} rate-limit store; the raw server does neither. ` +
      `Latencies are of every response (sub-millisecond, from autocannon's response events); CPU/req is the ` +
      `server process's user + system time over the responses it sent.`,
    '',
    `Per request the API runs, besides the read-model statements both servers run (\`/v1/rounds\`: listRounds; ` +
      `\`/v1/rounds/{id}/tickets\`: roundById, roundTickets; \`/v1/wallets/{address}/tickets\`: walletTickets), ` +
      `the check of the API key (from the in-process key cache; one accounts-database lookup when it is cold) and one Redis script ` +
      `(rate limits), then formats every row (EIP-55 addresses, Amount objects, timestamps), computes the ETag ` +
      `of settled-round resources and records metrics.`,
    '',
    `The machine may be shared with other work (the load average is given below each data set): absolute req/s ` +
      `and p99 then fall and vary from run to run; the ratio and the CPU time per request are the steadier figures. ` +
      `The full-speed runs saturate two cores with both servers' clients, Postgres and Redis: their p99 is mostly the ` +
      `wait behind the other connections' requests (the raw server's is no better). Latency is therefore also measured ` +
      `with both servers paced to ${pct(o.pacedShare)} of the API's full-speed req/s on that endpoint (requests at even ` +
      `intervals over ≤ ${o.connections} keep-alive connections for ${o.durationSeconds} s, each timed from when it was due, ` +
      `sent by a minimal HTTP client, bench/api/paced-client.ts, whose CPU per request is in the figures' JSON), ` +
      `an operating point with headroom, repeated as often as the full-speed runs (median by p99 shown), and the p99 ` +
      `goal is judged there.`,
    '',
    ...r.sizes.flatMap((size) => [sizeSection(size), '']),
    ...r.skipped.map((s) => `Not measured at ${fmt(s.tickets)} tickets: ${s.reason}`),
    ...(r.skipped.length > 0 ? [''] : []),
    'Figures: bench/api-results.json.',
    END,
  ].join('\n');
}

/** Replaces only the `<!-- bench:api -->` … `<!-- /bench:api -->` block (appended when absent). */
export function writeResultsMarkdown(path: string, block: string): void {
  writeMarkedBlock(path, 'bench:api', block, 'last');
}

/** The keys of bench/results.json that bench:api writes (and `npm run bench` leaves alone). */
export const isApiFigure = (key: string): boolean => key.startsWith('api_');

const sizeLabel = (tickets: number): string =>
  tickets % 1_000_000 === 0 ? `${tickets / 1_000_000}m` : `${Math.round(tickets / 1000)}k`;
const ENDPOINT_KEYS: Record<string, string> = {
  rounds: 'rounds',
  roundTickets: 'round_tickets',
  walletTickets: 'wallet_tickets',
};

/**
 * The run as flat named numbers for bench/results.json: per size and endpoint (`api_1m_rounds_rps`,
 * `…_raw_rps`, `…_ratio`, `…_p99_ms`, `…_paced_rps`, `…_paced_p99_ms`, `…_raw_paced_p99_ms`, CPU per request), RSS per
 * size, and headlines over the first size: `api_rps` and `api_raw_rps` (mean req/s of its endpoints) and
 * `api_ratio_min` (the lowest endpoint ratio).
 */
function flatFigures(r: Results): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const size of r.sizes) {
    const s = sizeLabel(size.tickets);
    for (const e of size.endpoints) {
      const k = `api_${s}_${ENDPOINT_KEYS[e.name] ?? e.name}`;
      Object.assign(figures, {
        [`${k}_rps`]: e.api.rps,
        [`${k}_raw_rps`]: e.raw.rps,
        [`${k}_ratio`]: e.ratio,
        [`${k}_p99_ms`]: e.api.p99,
        [`${k}_raw_p99_ms`]: e.raw.p99,
        [`${k}_paced_rps`]: e.paced.rate,
        [`${k}_paced_p99_ms`]: e.paced.api.p99,
        [`${k}_raw_paced_p99_ms`]: e.paced.raw.p99,
        [`${k}_cpu_us_per_request`]: e.api.serverCpuUsPerRequest,
        [`${k}_raw_cpu_us_per_request`]: e.raw.serverCpuUsPerRequest,
      });
    }
    figures[`api_${s}_rss_peak_mb`] = size.rss.api.peakMb;
    figures[`api_${s}_raw_rss_peak_mb`] = size.rss.raw.peakMb;
  }
  const first = r.sizes[0];
  if (first && first.endpoints.length > 0) {
    figures['api_rps'] = mean(first.endpoints.map((e) => e.api.rps));
    figures['api_raw_rps'] = mean(first.endpoints.map((e) => e.raw.rps));
    figures['api_ratio_min'] = Math.min(...first.endpoints.map((e) => e.ratio));
  }
  return figures;
}

export function writeFlatFigures(path: string, r: Results): void {
  writeFigures(path, flatFigures(r), isApiFigure);
}
