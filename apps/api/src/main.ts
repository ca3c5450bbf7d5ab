import 'reflect-metadata';
import { createAccountsDataSource, migrateAccounts, PostgresReadModelQueries } from '@lottery/persistence';
import { ConfigError, stopWhenParentExits } from '@lottery/telemetry';
import { loadApiConfig } from './config/api-config';
import { createApiApp } from './create-api-app';
import { closeWithin } from './http/close-within';
import { CachedApiKeyLookup } from './auth/cached-api-key-lookup';
import { AccountsApiKeyLookup } from './database/accounts-api-key-lookup';
import { ApiKeyChangeListener } from './database/api-key-change-listener';
import { AccountsPartnerLedger } from './database/accounts-partner-ledger';
import { BackgroundDataSource } from './database/background-data-source';
import { apiReadModelDataSource } from './database/read-models-data-source';
import { pipelineReadiness } from './health/pipeline-readiness';
import { createAppLogger } from './logger';
import { startPartnerGiveaways } from './partner-giveaways/purchase/start-partner-giveaways';
import { createRateLimits } from './rate-limit/create-rate-limits';

/** Shutdown lets requests in flight finish for this long, then closes what is still open. */
const SHUTDOWN_GRACE_MS = 5000;

/** Start-up waits this long for Postgres before serving anyway (with 503s until it answers). */
const STARTUP_DATABASE_WAIT_MS = 5000;

async function main(): Promise<void> {
  const config = loadApiConfig(process.env);
  const logger = createAppLogger(config.logLevel);

  const readModels = new BackgroundDataSource(
    'read_models_database',
    apiReadModelDataSource({ url: config.databaseUrl, schema: config.readSchema }),
    { logger },
  );
  // The API owns the accounts schema: it applies its migrations (under an advisory lock) on connect.
  const accounts = new BackgroundDataSource(
    'accounts_database',
    createAccountsDataSource({ url: config.databaseUrl }),
    {
      logger,
      prepare: migrateAccounts,
    },
  );
  readModels.start();
  accounts.start();
  await Promise.all([readModels, accounts].map((db) => db.waitUntilReady(STARTUP_DATABASE_WAIT_MS)));

  const rateLimits = await createRateLimits(config, logger);
  const apiKeys = new CachedApiKeyLookup(new AccountsApiKeyLookup(accounts, config.keyPrefix), {
    ttlMs: config.apiKeyCacheTtlMs,
  });
  const apiKeyChanges = new ApiKeyChangeListener(config.databaseUrl, apiKeys, logger);
  if (config.apiKeyCacheTtlMs > 0) apiKeyChanges.start();
  // Without chain configuration the partner API answers 503 and everything else runs as usual.
  const giveaways = config.giveaways
    ? startPartnerGiveaways({
        config: config.giveaways,
        ledger: new AccountsPartnerLedger(accounts, config.keyPrefix),
        logger,
        redis: config.redisUrl === null ? null : { url: config.redisUrl, keyPrefix: config.redisKeyPrefix },
      })
    : null;
  if (!giveaways) logger.warn('RPC_URL and friends are not set: the partner free ticket API answers 503');
  const app = await createApiApp({
    config,
    logger,
    readModels: new PostgresReadModelQueries(readModels.dataSource),
    apiKeys,
    rateLimitStore: rateLimits.store,
    readinessChecks: [
      readModels,
      accounts,
      ...rateLimits.readinessChecks,
      ...(config.pipelineReadyUrls.length > 0 ? [pipelineReadiness(config.pipelineReadyUrls)] : []),
    ],
    giveaways: giveaways?.giveaways ?? null,
  });
  await app.listen({ port: config.port, host: config.host });
  logger.info({ port: config.port, environment: config.environment }, 'Data API listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await closeWithin(app, SHUTDOWN_GRACE_MS);
    // The signer finishes the purchase in progress before the databases close under it.
    await giveaways?.close();
    await Promise.all([readModels.close(), accounts.close(), rateLimits.store.close(), apiKeyChanges.close()]);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  stopWhenParentExits(() => void stop('supervisor exited'));
}

main().catch((error: unknown) => {
  // Config problems are the operator's to fix: print them plainly, without a stack.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
