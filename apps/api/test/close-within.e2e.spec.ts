import { connect, type Socket } from 'node:net';
import { closeWithin } from '../src/http/close-within';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * A connection in the middle of a request that never completes (here: headers sent without their end) is
 * not idle, so a plain close waits for the client. Shutdown must not wait for it beyond its grace.
 */
describe('shutdown with a connection whose request never completes', () => {
  let app: TestApp;
  let stalled: Socket;
  beforeEach(async () => {
    app = await startTestApp();
    const port = await app.listen();
    stalled = connect({ port, host: '127.0.0.1' });
    await new Promise((resolve) => stalled.once('connect', resolve));
    stalled.write('GET /v1/rounds HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
  afterEach(() => stalled.destroy());

  it('a plain close is still waiting for it after a second', async () => {
    const closed = app.app.close().then(() => 'closed');
    const after = await Promise.race([closed, new Promise((r) => setTimeout(() => r('waiting'), 1000))]);
    expect(after).toBe('waiting');
    stalled.destroy();
    await closed;
  });

  it('closeWithin closes it once the grace is spent', async () => {
    const started = Date.now();
    await closeWithin(app.app, 300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
