import autocannon from 'autocannon';
import { PacedClient } from './paced-client';
import { processStats, RssPeak, type Server } from './servers';

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
}

export interface Measurement {
  /** 2xx responses per second over the run (autocannon's per-second mean). */
  rps: number;
  /** Latency of every response, ms (sub-millisecond precision, from autocannon's response events). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Responses counted and how many were not 2xx, errors, timeouts. */
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The server process: CPU time per response (µs) and its RSS, peak during the run and at its end (MB). */
  serverCpuUsPerRequest: number;
  /**
   * The load generator's CPU time per response (µs): the bench process, on the same cores as the
   * servers, so what it spends is taken from them.
   */
  clientCpuUsPerRequest: number;
  rssPeakMb: number;
  rssEndMb: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** What a load run saw on the client side; `measured` adds the server's CPU and RSS. */
interface ClientSide {
  rps: number;
  latencies: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
}

async function measured(server: Server, run: () => Promise<ClientSide>): Promise<Measurement> {
  const rss = new RssPeak(server.child.pid);
  const cpuBefore = processStats(server.child.pid);
  const clientCpu = process.cpuUsage();
  const client = await run();
  const { user, system } = process.cpuUsage(clientCpu);
  const cpuAfter = processStats(server.child.pid);
  const rssPeakMb = rss.stop();
  const sorted = Float64Array.from(client.latencies).sort();
  const cpuMs = cpuBefore && cpuAfter ? cpuAfter.cpuMs - cpuBefore.cpuMs : NaN;
  return {
    rps: round(client.rps, 1),
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1] : NaN),
    responses: sorted.length,
    non2xx: client.non2xx,
    errors: client.errors,
    timeouts: client.timeouts,
    serverCpuUsPerRequest: round((cpuMs * 1000) / Math.max(1, sorted.length), 0),
    clientCpuUsPerRequest: round((user + system) / Math.max(1, sorted.length), 0),
    rssPeakMb: round(rssPeakMb, 1),
    rssEndMb: round(processStats(server.child.pid)?.rssMb ?? NaN, 1),
  };
}

/**
 * `connections` keep-alive connections for `durationSeconds`, each request the next of `paths` in turn
 * (every connection walks the same list from a different point), against one server, as fast as it answers.
 */
export function hammer(
  server: Server,
  paths: readonly string[],
  headers: Record<string, string>,
  options: LoadOptions,
): Promise<Measurement> {
  let next = 0;
  const latencies: number[] = [];
  return measured(server, async () => {
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: server.baseUrl,
          connections: options.connections,
          duration: options.durationSeconds,
          headers,
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
        },
        (error: unknown, r: autocannon.Result) => (error ? reject(error) : resolve(r)),
      );
      instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
    });
    const { non2xx, errors, timeouts } = result;
    return { rps: result.requests.average, latencies, non2xx, errors, timeouts };
  });
}

const PACED_TIMEOUT_MS = 10_000;

/**
 * `rate` requests per second at even intervals for `durationSeconds` (autocannon's own rate limit sends
 * each second's quota in a burst, which queues like a saturated run). A request's latency runs from the
 * moment it was due, not from when it went out, so a server that falls behind is charged for the wait
 * (no coordinated omission). Keep-alive connections, as many as are busy at once, up to `connections`,
 * through PacedClient (node:http's client cost as much CPU as the raw server, taken from the servers).
 */
export function paced(
  server: Server,
  paths: readonly string[],
  headers: Record<string, string>,
  rate: number,
  options: LoadOptions,
): Promise<Measurement> {
  return measured(server, async () => {
    const http = new PacedClient(server.baseUrl, headers, options.connections, PACED_TIMEOUT_MS);
    const total = Math.round(rate * options.durationSeconds);
    const client: ClientSide = { rps: 0, latencies: [], non2xx: 0, errors: 0, timeouts: 0 };
    const one = async (path: string, due: number) => {
      const outcome = await http.get(path);
      if ('status' in outcome) {
        client.latencies.push(performance.now() - due);
        if (outcome.status < 200 || outcome.status > 299) client.non2xx++;
      } else if (outcome.error === 'timeout') client.timeouts++;
      else client.errors++;
    };
    // The bench's own heap (the data set's paths, earlier runs' samples) collected now, not in a major GC of
    // tens of ms between timed requests, which would count against whichever server is measured. Needs
    // node's --expose-gc (the npm scripts give it); without it the run goes on as before.
    (globalThis as { gc?: () => void }).gc?.();
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(one(paths[i % paths.length], due));
    }
    await Promise.all(inFlight);
    http.close();
    client.rps = client.latencies.length / ((performance.now() - start) / 1000);
    return client;
  });
}
