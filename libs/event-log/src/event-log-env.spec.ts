import { z } from 'zod';
import { checkKafkaEnv, EVENT_LOG_ENV_FIELDS, eventLogConfigFromEnv } from './event-log-env';
import { postgresLogSchema } from './postgres/postgres-log-schema';

const schema = z.object(EVENT_LOG_ENV_FIELDS).superRefine(checkKafkaEnv);

describe('the event log variables', () => {
  it('default to the Postgres log in schema lottery_log', () => {
    const env = schema.parse({});
    expect(eventLogConfigFromEnv(env, 8453, 'postgres://db')).toEqual({
      kind: 'postgres',
      databaseUrl: 'postgres://db',
      schema: 'lottery_log',
    });
  });

  it('name Kafka brokers, the topic prefix and the chain', () => {
    const env = schema.parse({ EVENT_LOG: 'kafka', KAFKA_BROKERS: 'a:9092, b:9092,', KAFKA_TOPIC_PREFIX: 'staging' });
    expect(eventLogConfigFromEnv(env, 8453, 'unused')).toEqual({
      kind: 'kafka',
      brokers: ['a:9092', 'b:9092'],
      chainId: 8453,
      topicPrefix: 'staging',
      replicationFactor: 1,
      minInsyncReplicas: undefined,
    });
  });

  it("name the topics' replicas, and how many must have an append before it is acknowledged", () => {
    const kafka = { EVENT_LOG: 'kafka', KAFKA_BROKERS: 'a:9092' };
    const config = (input: Record<string, string>) => eventLogConfigFromEnv(schema.parse(input), 8453, 'unused');
    expect(config({ ...kafka, KAFKA_REPLICATION_FACTOR: '3' })).toMatchObject({
      replicationFactor: 3,
      minInsyncReplicas: undefined, // the log's default: one less, 2
    });
    expect(config({ ...kafka, KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '3' })).toMatchObject({
      replicationFactor: 3,
      minInsyncReplicas: 3,
    });
    expect(
      schema.safeParse({ ...kafka, KAFKA_REPLICATION_FACTOR: '2', KAFKA_MIN_INSYNC_REPLICAS: '3' }).error?.issues,
    ).toMatchObject([
      {
        path: ['KAFKA_MIN_INSYNC_REPLICAS'],
        message: 'at most KAFKA_REPLICATION_FACTOR (2): no append could be acknowledged',
      },
    ]);
    expect(schema.safeParse({ ...kafka, KAFKA_REPLICATION_FACTOR: '0' }).success).toBe(false);
  });

  it('refuse Kafka without brokers, and names that are not identifiers or topic prefixes', () => {
    const problems = (input: Record<string, string>) =>
      schema.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(problems({ EVENT_LOG: 'kafka' })).toEqual(['KAFKA_BROKERS: required when EVENT_LOG=kafka (host:port,…)']);
    expect(problems({ EVENT_LOG: 'kafka', KAFKA_BROKERS: ' , ' })).toEqual([
      'KAFKA_BROKERS: required when EVENT_LOG=kafka (host:port,…)',
    ]);
    expect(problems({ EVENT_LOG_SCHEMA: 'Log; drop', KAFKA_TOPIC_PREFIX: 'a b' })).toEqual([
      'EVENT_LOG_SCHEMA: must be a lowercase SQL identifier of at most 40 characters',
      'KAFKA_TOPIC_PREFIX: must be a Kafka topic name prefix (letters, digits, . _ -)',
    ]);
  });

  it('take schema names of up to 40 characters, as the Postgres log does (validated at start, not at first use)', () => {
    expect(schema.safeParse({ EVENT_LOG_SCHEMA: 'l'.repeat(40) }).success).toBe(true);
    expect(() => postgresLogSchema('l'.repeat(40))).not.toThrow();
    expect(schema.safeParse({ EVENT_LOG_SCHEMA: 'l'.repeat(41) }).success).toBe(false);
  });
});
