import type { LotteryDeployment } from '@lottery/contracts';
import { createEventLog } from '@lottery/event-log';
import { createReadModelDataSource, migrateReadModels } from '@lottery/persistence';
import { followToHead } from '@lottery/pipeline-testing';
import { Projection } from '@lottery/projection';
import { createTestDatabase } from '@lottery/testing';
import { snapshotReadModels, type ReadModelSnapshot } from './read-model-snapshot';

const FOLD_BATCH = 2_000;

/**
 * What the read models must be for the chain as it is now: a fresh follower from the deploy block into a
 * fresh (Postgres) log, folded in one go into a database of its own, which is dropped afterwards.
 * Mining must be paused, or the reference is of a chain that has moved on.
 */
export async function referenceReadModels(rpcUrl: string, deployment: LotteryDeployment): Promise<ReadModelSnapshot> {
  const db = await createTestDatabase('reorgs_reference');
  const log = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: 'lottery_log' });
  const readModels = createReadModelDataSource({ url: db.url, poolSize: 2, applicationName: 'reorgs-reference' });
  try {
    await log.init();
    await followToHead(rpcUrl, deployment, log);
    await readModels.initialize();
    await migrateReadModels(readModels);
    const projection = new Projection(readModels, { chainId: deployment.chainId });
    for (let from = await log.head(); ;) {
      const batch = await log.read(from, FOLD_BATCH);
      if (batch.length === 0) break;
      await projection.applyBatch(batch);
      from = (batch.at(-1) as { position: number }).position + 1;
    }
    return await snapshotReadModels(readModels);
  } finally {
    if (readModels.isInitialized) await readModels.destroy();
    await log.close();
    await db.drop();
  }
}
