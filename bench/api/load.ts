import autocannon from 'autocannon';
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
  rssPeakMb: number;
  rssEndMb: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * `connections` keep-alive connections for `durationSeconds`, each request the next of `paths` in turn
 * (every connection walks the same list from a different point), against one server.
 */
export async function hammer(
  server: Server,
  paths: readonly string[],
  headers: Record<string, string>,
  options: LoadOptions,
): Promise<Measurement> {
  let next = 0;
  const latencies: number[] = [];
  const rss = new RssPeak(server.child.pid);
  const cpuBefore = processStats(server.child.pid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.baseUrl,
        connections: options.connections,
        duration: options.durationSeconds,
        headers,
        requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }],
      },
      (error: unknown, r: autocannon.Result) => (error ? reject(error) : resolve(r)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  const cpuAfter = processStats(server.child.pid);
  const rssPeakMb = rss.stop();
  const sorted = Float64Array.from(latencies).sort();
  const cpuMs = cpuBefore && cpuAfter ? cpuAfter.cpuMs - cpuBefore.cpuMs : NaN;
  return {
    rps: round(result.requests.average, 1),
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1] : NaN),
    responses: latencies.length,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpuUsPerRequest: round((cpuMs * 1000) / Math.max(1, latencies.length), 0),
    rssPeakMb: round(rssPeakMb, 1),
    rssEndMb: round(processStats(server.child.pid)?.rssMb ?? NaN, 1),
  };
}
