import { createReadModelDataSource } from '@lottery/persistence';
import type { DataSource } from 'typeorm';

/**
 * A read-model statement running this long is cancelled by Postgres, and the request answers 503
 * upstream_unavailable (a second later the client stops waiting for any answer: a Postgres that stopped
 * answering on an open connection, frozen or failed over without a word, would otherwise hold every request
 * until TCP gives up). Cancelled, not abandoned: an overloaded server is not left running what nobody
 * waits for. Far above the API's slowest query (milliseconds).
 */
export const READ_MODEL_STATEMENT_TIMEOUT_MS = 5000;

/** The API's pool over the read models. */
export function apiReadModelDataSource(options: { url: string; schema?: string }): DataSource {
  return createReadModelDataSource({
    url: options.url,
    schema: options.schema,
    applicationName: 'lottery-api',
    // every request reads the models: their connections stay open through quiet spells
    idleConnectionTimeoutMs: 0,
    statementTimeoutMs: READ_MODEL_STATEMENT_TIMEOUT_MS,
  });
}
