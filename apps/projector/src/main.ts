import { createEventLog, eventLogConfigFromEnv } from '@lottery/event-log';
import {
  createReadModelDataSource,
  migrateReadModels,
  PROJECTOR_APPLICATION_NAME,
  ProjectorPresence,
} from '@lottery/persistence';
import { PoisonEventError, Projection } from '@lottery/projection';
import { createLogger, shutdownSignal, startMetricsServer } from '@lottery/telemetry';
import { loadProjectorConfig } from './config';
import { createProjectorMetrics } from './projector-metrics';
import { ProjectorReadiness } from './projector-readiness';
import { runProjector } from './run-projector';

/** Event log → read models. Wiring and lifecycle only; the fold lives in libs/projection. */
async function main(): Promise<void> {
  const config = loadProjectorConfig();
  const logger = createLogger('projector', config.LOG_LEVEL);
  const shutdown = shutdownSignal(logger);

  const readiness = new ProjectorReadiness(config.READY_MAX_LAG_EVENTS);
  const metricsServer = await startMetricsServer(config.METRICS_PORT, () => readiness.notReadyReason());
  const dataSource = createReadModelDataSource({
    url: config.DATABASE_URL,
    schema: config.READ_SCHEMA,
    poolSize: 3,
    applicationName: PROJECTOR_APPLICATION_NAME,
  });
  const eventLog = createEventLog(eventLogConfigFromEnv(config, config.CHAIN_ID, config.DATABASE_URL));
  const takenOver = new AbortController();
  let waitedForAReplay = false;
  const presence = new ProjectorPresence({
    url: config.DATABASE_URL,
    schema: config.READ_SCHEMA,
    onWaiting: () => {
      waitedForAReplay = true;
      readiness.blockedBy('ops replay --new-log is rebuilding the read models from another log');
      logger.warn({ schema: config.READ_SCHEMA }, 'ops replay --new-log is running: waiting for it to end');
    },
    onTakenOver: () => takenOver.abort(),
    onSessionLost: (error) => logger.warn({ err: error }, 'presence lock session lost: taking the lock again'),
  });
  try {
    // first, before the migrations touch the schema a replay of a new log may be rebuilding
    await presence.start(shutdown);
    if (waitedForAReplay) {
      throw new Error(
        'ops replay --new-log rebuilt the read models from another log while this projector waited: ' +
          'it stops here; start it again on that log',
      );
    }
    readiness.blockedBy(null);
    await dataSource.initialize();
    const ran = await migrateReadModels(dataSource);
    if (ran.length > 0) logger.info({ migrations: ran, schema: config.READ_SCHEMA }, 'read-model migrations ran');
    await eventLog.init();
    const projection = new Projection(dataSource, {
      chainId: config.CHAIN_ID,
      schema: config.READ_SCHEMA,
      reorgWindowBlocks: config.REORG_WINDOW_BLOCKS,
    });
    await runProjector(
      {
        projection,
        eventLog,
        metrics: createProjectorMetrics(metricsServer.registry),
        logger,
        maxBatch: config.BATCH_MAX_EVENTS,
        maxWaitMs: config.BATCH_MAX_WAIT_MS,
        lagEveryMs: 1_000,
        onLag: (events) => readiness.observeLag(events),
        onBlocked: (reason) => readiness.blockedBy(reason),
      },
      AbortSignal.any([shutdown, takenOver.signal]),
    );
    if (takenOver.signal.aborted) {
      throw new Error(
        'ops replay --new-log took the read models over while this projector had lost its session: ' +
          'it stops here; start it again on the new log',
      );
    }
    logger.info('projector stopped');
  } catch (error) {
    readiness.fail(error instanceof Error ? error.message : String(error));
    if (error instanceof PoisonEventError) {
      logger.fatal({ eventId: error.eventId, position: error.position, reason: error.reason }, 'poison event: stopped');
    } else {
      logger.fatal({ err: error }, 'projector failed');
    }
    process.exitCode = 1;
  } finally {
    await presence.stop();
    await eventLog.close();
    if (dataSource.isInitialized) await dataSource.destroy();
    await metricsServer.close();
  }
}

main().catch((error: unknown) => {
  // Configuration and start-up errors: one readable message, no stack for the operator to dig through.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
