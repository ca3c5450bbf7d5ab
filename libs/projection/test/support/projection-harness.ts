import type { EventEnvelope } from '@lottery/domain';
import {
  createReadModelDataSource,
  migrateReadModels,
  PostgresReadModelQueries,
  type ReadModelQueries,
} from '@lottery/persistence';
import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import type { DataSource } from 'typeorm';
import { Projection, type LogRecord } from '../../src';
import { Random } from '@lottery/fold-testing';
import { resetReadModels } from './reset-read-models';

export const CHAIN_ID = 31337;

export interface ProjectionHarness {
  db: TestDatabase;
  dataSource: DataSource;
  projection: Projection;
  queries: ReadModelQueries;
  close(): Promise<void>;
}

/** A fresh database with the read models migrated, the fold and the API's queries over it. */
export async function startProjection(label: string): Promise<ProjectionHarness> {
  const db = await createTestDatabase(label);
  const dataSource = createReadModelDataSource({ url: db.url, poolSize: 2 });
  await dataSource.initialize();
  await migrateReadModels(dataSource);
  return {
    db,
    dataSource,
    projection: new Projection(dataSource, { chainId: CHAIN_ID }),
    queries: new PostgresReadModelQueries(dataSource),
    async close() {
      await dataSource.destroy();
      await db.drop();
    },
  };
}

/** A suite's database (one per suite, emptied before each test); filled in by the suite's beforeAll. */
export function projectionSuite(label: string): ProjectionHarness {
  const h = {} as ProjectionHarness;
  beforeAll(async () => {
    Object.assign(h, await startProjection(label));
  });
  afterAll(() => h.close());
  beforeEach(() => startAfresh(h));
  return h;
}

/**
 * Empties the read models and starts a projector on them: one that had folded the previous test's log
 * would rightly refuse a stored position behind its own (StoredPositionBehindError).
 */
export async function startAfresh(h: ProjectionHarness): Promise<void> {
  await resetReadModels(h.dataSource);
  h.projection = new Projection(h.dataSource, { chainId: CHAIN_ID });
}

/** The log as the event-log port numbers it: positions 1, 2, 3, … */
export const asLog = (events: readonly EventEnvelope[], first = 1): LogRecord<EventEnvelope>[] =>
  events.map((event, i) => ({ position: first + i, event }));

/**
 * Delivers the log in batches of random sizes (seeded), so batch boundaries fall everywhere: inside
 * purchase transactions, between a reorg and its replacement blocks, inside settlements.
 */
export async function feed(projection: Projection, log: readonly LogRecord[], seed: number, maxBatch = 400) {
  const random = new Random(seed);
  for (let i = 0; i < log.length;) {
    const size = random.int(1, maxBatch);
    await projection.applyBatch(log.slice(i, i + size));
    i += size;
  }
}
