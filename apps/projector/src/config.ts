import { EVENT_LOG_ENV_FIELDS, checkKafkaEnv } from '@lottery/event-log';
import { READ_SCHEMA_ENV } from '@lottery/persistence';
import { DEFAULT_BATCH_MAX_EVENTS, DEFAULT_REORG_WINDOW_BLOCKS } from '@lottery/projection';
import { loadConfig, LOG_LEVEL_ENV } from '@lottery/telemetry';
import { z } from 'zod';

const schema = z
  .object({
    DATABASE_URL: z
      .string({ message: 'required: the Postgres holding the read models (postgres://user:pass@host:5432/db)' })
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
    ...EVENT_LOG_ENV_FIELDS,
    CHAIN_ID: z.coerce.number({ message: 'required: the chain id the log follows (8453 for Base)' }).int().positive(),
    READ_SCHEMA: READ_SCHEMA_ENV,
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
    BATCH_MAX_EVENTS: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_BATCH_MAX_EVENTS),
    BATCH_MAX_WAIT_MS: z.coerce.number().int().min(0).default(0),
    // /health/ready turns 200 once the read models are within this many events of the log's tail.
    READY_MAX_LAG_EVENTS: z.coerce.number().int().min(0).default(1_000),
    REORG_WINDOW_BLOCKS: z.coerce.number().int().min(1).default(DEFAULT_REORG_WINDOW_BLOCKS),
    LOG_LEVEL: LOG_LEVEL_ENV,
  })
  .superRefine(checkKafkaEnv)
  .superRefine((env, ctx) => {
    // every Kafka append ends with a commit marker: a caught-up projector is one position behind the tail
    if (env.EVENT_LOG === 'kafka' && env.READY_MAX_LAG_EVENTS === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['READY_MAX_LAG_EVENTS'],
        message:
          "must be at least 1 with EVENT_LOG=kafka: the last append's commit marker keeps a caught-up projector 1 behind",
      });
    }
  });

export type ProjectorConfig = z.infer<typeof schema>;

/** The validated variables, for the deployment-manifest and README checks. */
export const PROJECTOR_ENV_SCHEMA = schema;
/** Every variable the projector reads. */
export const PROJECTOR_ENV_KEYS: readonly string[] = Object.keys(schema.shape);

/** The projector's environment, validated once at start; every problem is reported in one error. */
export function loadProjectorConfig(env: NodeJS.ProcessEnv = process.env): ProjectorConfig {
  return loadConfig('projector', schema, env);
}
