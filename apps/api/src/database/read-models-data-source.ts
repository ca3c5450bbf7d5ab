import { createReadModelDataSource } from '@lottery/persistence';
import type { DataSource } from 'typeorm';

/**
 * A read-model query unanswered this long fails, and the request answers 503 upstream_unavailable: a
 * Postgres that stops answering on an open connection (frozen, or failed over without a word) would
 * otherwise hold every request until TCP gives up. Far above the API's slowest query (milliseconds).
 */
export const READ_MODEL_QUERY_TIMEOUT_MS = 5000;

/** The API's pool over the read models. */
export function apiReadModelDataSource(options: { url: string; schema?: string }): DataSource {
  return createReadModelDataSource({
    url: options.url,
    schema: options.schema,
    applicationName: 'lottery-api',
    // every request reads the models: their connections stay open through quiet spells
    idleConnectionTimeoutMs: 0,
    queryTimeoutMs: READ_MODEL_QUERY_TIMEOUT_MS,
  });
}
