import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipelineReadiness } from './pipeline-readiness';

describe('pipelineReadiness', () => {
  let server: Server;
  let base: string;
  const states: Record<string, { status: number; body: unknown }> = {};

  beforeAll(async () => {
    server = createServer((req, res) => {
      const state = states[req.url ?? ''] ?? { status: 404, body: {} };
      res.writeHead(state.status, { 'content-type': 'application/json' }).end(JSON.stringify(state.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is ready only when every app is, and names the one that is not with its reason', async () => {
    states['/indexer'] = { status: 200, body: { status: 'ok' } };
    states['/projector'] = { status: 503, body: { status: 'unavailable', reason: 'catching up: 812 events behind' } };
    const check = pipelineReadiness([`${base}/indexer`, `${base}/projector`]);
    await expect(check.check()).rejects.toThrow(/catching up: 812 events behind/);
    states['/projector'] = { status: 200, body: { status: 'ok' } };
    await expect(check.check()).resolves.toBeUndefined();
  });

  it('fails when an app does not answer', async () => {
    await expect(pipelineReadiness(['http://127.0.0.1:1/health/ready']).check()).rejects.toThrow();
  });
});
