import { simulateBulk } from '@lottery/contracts';
import { chainTruth, logView } from './support/chain-truth';
import {
  eventually,
  headOf,
  readLogEnvelopes,
  rpcCall,
  startIndexerFixture,
  type IndexerFixture,
} from './support/indexer-fixture';
import { exited, indexerEnv, spawnIndexer } from './support/indexer-process';

jest.setTimeout(300_000);

describe('indexer process killed with SIGKILL during backfill', () => {
  let f: IndexerFixture;

  beforeAll(async () => {
    f = await startIndexerFixture('indexer_crash');
    // Event-dense stretches between long empty ones: kills land in both kinds of range.
    const mineEmpty = (n: number) => rpcCall(f.anvil.rpcUrl, 'anvil_mine', [`0x${n.toString(16)}`]);
    await mineEmpty(400);
    await simulateBulk(f.anvil.rpcUrl, f.deployment, {
      seed: 5,
      targetEvents: 4_000,
      ticketsPerOrder: 40,
      ticketsPerDrawing: 3_000,
    });
    await mineEmpty(400);
    await simulateBulk(f.anvil.rpcUrl, f.deployment, {
      seed: 6,
      targetEvents: 8_000,
      ticketsPerOrder: 40,
      ticketsPerDrawing: 3_000,
    });
    await mineEmpty(400);
  });

  afterAll(() => f?.dispose());

  it('resumes from its checkpoint after 5 kills and ends with exactly the chain logs', async () => {
    // Tiny ranges make the backfill take many appends, so every kill lands in the middle of it.
    const env = indexerEnv(f.deployment, f.anvil.rpcUrl, f.databaseUrl, {
      BACKFILL_MAX_SPAN: '2',
      BACKFILL_CONCURRENCY: '2',
      REORG_DEPTH: '4',
    });
    const checkpoint = async () => (await f.eventLog.lastCheckpoint())?.blockNumber ?? -1;
    const checkpoints: number[] = [];
    let seed = 42;
    const nextDelay = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return 100 + (seed % 1_000);
    };
    for (let kill = 0; kill < 5; kill++) {
      const before = await checkpoint();
      const child = spawnIndexer(env);
      // Kill at a random moment once this run has appended something, so every kill interrupts work.
      await eventually(async () => (await checkpoint()) > before, `progress after kill ${kill}`, 60_000);
      await new Promise((r) => setTimeout(r, nextDelay()));
      child.kill('SIGKILL');
      expect((await exited(child)).signal).toBe('SIGKILL');
      checkpoints.push(await checkpoint());
    }
    const head = await headOf(f.anvil.rpcUrl);
    // The kills hit a backfill in progress: it advanced between kills and had not finished by the last one.
    expect(new Set(checkpoints).size).toBeGreaterThan(2);
    expect(checkpoints[checkpoints.length - 1]).toBeLessThan(head);

    const child = spawnIndexer(env);
    await eventually(
      async () => ((await f.eventLog.lastCheckpoint())?.blockNumber ?? -1) >= head,
      'the final catch-up',
      240_000,
    );
    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 0, signal: null });

    const log = await readLogEnvelopes(f.eventLog);
    expect(logView(log)).toEqual(await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock));
  });
});
