import { canonicalEvents } from '@lottery/domain';
import type { LoggedEvent } from '@lottery/event-log';
import { createReadModelDataSource } from '@lottery/persistence';
import { dumpDifference, dumpSchema, type DumpDifference } from '@lottery/testing';

/** The log positions differ between a Kafka and a Postgres log with the same events: not a divergence. */
const LEGITIMATELY_DIFFERENT = ['read_model_migrations', 'projector_state'];

async function dumpReadModels(databaseUrl: string): Promise<string> {
  const dataSource = createReadModelDataSource({ url: databaseUrl, poolSize: 1, applicationName: 'chaos-dump' });
  await dataSource.initialize();
  try {
    return await dumpSchema(dataSource, 'lottery', LEGITIMATELY_DIFFERENT);
  } finally {
    await dataSource.destroy();
  }
}

export async function compareReadModels(chaosUrl: string, referenceUrl: string): Promise<DumpDifference> {
  return dumpDifference(await dumpReadModels(chaosUrl), await dumpReadModels(referenceUrl));
}

export interface LogComparison {
  /** Canonical events (reverted blocks undone, re-appends counted once) of the chaos log. */
  canonical: number;
  /** Records whose event id the log already held (a re-append the fold must skip). */
  reappended: number;
  /** Canonical event ids of the clean replay missing from the chaos log, and the other way round. */
  missing: string[];
  extra: string[];
  /** Both hold the same events but not in the same order. */
  reordered: boolean;
}

export function compareLogs(chaos: LoggedEvent[], reference: LoggedEvent[]): LogComparison {
  const chaosIds = canonicalEvents(chaos.map((r) => r.event)).map((e) => e.id);
  const referenceIds = canonicalEvents(reference.map((r) => r.event)).map((e) => e.id);
  const inChaos = new Set(chaosIds);
  const inReference = new Set(referenceIds);
  const seen = new Set<string>();
  let reappended = 0;
  for (const { event } of chaos) {
    if (event.type === 'BlocksReverted') continue;
    if (seen.has(event.id)) reappended += 1;
    seen.add(event.id);
  }
  const missing = referenceIds.filter((id) => !inChaos.has(id));
  const extra = chaosIds.filter((id) => !inReference.has(id));
  return {
    canonical: chaosIds.length,
    reappended,
    missing,
    extra,
    reordered: missing.length === 0 && extra.length === 0 && chaosIds.some((id, i) => id !== referenceIds[i]),
  };
}
