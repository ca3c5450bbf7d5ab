import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';

export interface HealthCheck {
  /** Returns null when healthy, else the reason. */
  (): string | null;
}

export interface MetricsServer {
  registry: Registry;
  port: number;
  close(): Promise<void>;
}

/**
 * A process's operational surface: Prometheus text on /metrics, liveness on /health/live and
 * readiness on /health/ready (503 with the reason while a check fails).
 */
export async function startMetricsServer(
  port: number,
  ready: HealthCheck,
  registry = new Registry(),
): Promise<MetricsServer> {
  collectDefaultMetrics({ register: registry });
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.url === '/metrics') {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(await registry.metrics());
      } else if (req.url === '/health/live') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"ok"}');
      } else if (req.url === '/health/ready') {
        const problem = ready();
        res.writeHead(problem ? 503 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(problem ? { status: 'unavailable', reason: problem } : { status: 'ok' }));
      } else {
        res.writeHead(404).end();
      }
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', resolve);
  });
  return {
    registry,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
