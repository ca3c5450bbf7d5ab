/**
 * What an app process serves about itself on its port: a Prometheus figure from /metrics and its
 * /health/ready answer. Both read "not there" (null, false) while the process is down or starting.
 */

/** A process that takes longer is as good as down (it may be stopped, or swapping). */
const PROBE_TIMEOUT_MS = 5_000;

export async function appMetric(port: number, name: string): Promise<number | null> {
  try {
    const text = await (
      await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
    ).text();
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

export async function appReady(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })).ok;
  } catch {
    return false;
  }
}
