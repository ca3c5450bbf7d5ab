import { freePort } from '@lottery/telemetry';
import { eventually, startIndexerFixture, type IndexerFixture } from './support/indexer-fixture';
import { exited, indexerEnv, spawnIndexer } from './support/indexer-process';

jest.setTimeout(120_000);

describe('indexer process while its node is out of reach', () => {
  let f: IndexerFixture;

  beforeAll(async () => {
    f = await startIndexerFixture('indexer_start');
  });
  afterAll(() => f?.dispose());

  it('serves its health endpoints (live, not ready) while it waits, and a SIGTERM then stops it cleanly', async () => {
    const metricsPort = await freePort();
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const child = spawnIndexer(
      indexerEnv(f.deployment, unreachable, f.databaseUrl, { METRICS_PORT: String(metricsPort) }),
    );
    try {
      const base = `http://127.0.0.1:${metricsPort}`;
      // a liveness probe that failed here would have the pod restarted while it only waits for its node
      const live = await eventually(
        async () => (await fetch(`${base}/health/live`).catch(() => null))?.status === 200,
        'live',
      );
      expect(live).toBe(true);
      const ready = await fetch(`${base}/health/ready`);
      expect([ready.status, await ready.text()]).toEqual([
        503,
        expect.stringMatching(/starting: waiting for the node/),
      ]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited(child)).toEqual({ code: 0, signal: null });
  });

  it('refuses contracts that are not on its chain, or a JACKPOT_ADDRESS that is another contract, before appending', async () => {
    const stderrOf = async (extra: NodeJS.ProcessEnv) => {
      const env = indexerEnv(f.deployment, f.anvil.rpcUrl, f.databaseUrl, extra);
      const child = spawnIndexer(env);
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      expect((await exited(child)).code).toBe(1);
      return stderr;
    };
    const nobody = `0x${'12'.repeat(20)}`;
    expect(await stderrOf({ DAILY_POOL_ADDRESS: nobody })).toContain(
      `DAILY_POOL_ADDRESS ${nobody} has no contract code on this chain`,
    );
    const lpManager = f.deployment.addresses.lpManager.toLowerCase();
    expect(await stderrOf({ JACKPOT_ADDRESS: lpManager })).toContain(
      `JACKPOT_ADDRESS ${lpManager} does not answer currentDrawingId(): not the lottery's Jackpot`,
    );
    expect(await f.eventLog.lastCheckpoint()).toBeNull();
  });
});
