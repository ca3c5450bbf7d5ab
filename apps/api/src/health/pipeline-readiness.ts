import type { ReadinessCheck } from './readiness-check';

/**
 * The API serves read models; they are only current once the indexer and the projector have caught
 * up. With PIPELINE_READY_URLS set (their /health/ready URLs), the API is ready only when they are.
 * Off by default: in Kubernetes each app has its own probe and an API pod should not leave the
 * Service because the projector restarts; `ops start` turns it on for the one-machine default.
 */
export function pipelineReadiness(urls: readonly string[]): ReadinessCheck {
  return {
    name: 'pipeline',
    async check() {
      for (const url of urls) {
        const response = await fetch(url, { signal: AbortSignal.timeout(1_500) });
        if (response.ok) continue;
        const body = (await response.json().catch(() => ({}))) as { reason?: string };
        throw new Error(`${new URL(url).host}: ${body.reason ?? `HTTP ${response.status}`}`);
      }
    },
  };
}
