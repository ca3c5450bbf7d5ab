import { z } from 'zod';
import { EVENT_LOG_ENV_FIELDS, eventLogConfigFromEnv, requireKafkaBrokers } from './event-log-env';
import { postgresLogSchema } from './postgres/postgres-log-schema';

const schema = z.object(EVENT_LOG_ENV_FIELDS).superRefine(requireKafkaBrokers);

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
    const env = schema.parse({ EVENT_LOG: 'kafka', KAFKA_BROKERS: 'a:9092,b:9092', KAFKA_TOPIC_PREFIX: 'staging' });
    expect(eventLogConfigFromEnv(env, 8453, 'unused')).toEqual({
      kind: 'kafka',
      brokers: ['a:9092', 'b:9092'],
      chainId: 8453,
      topicPrefix: 'staging',
    });
  });

  it('refuse Kafka without brokers, and names that are not identifiers or topic prefixes', () => {
    const problems = (input: Record<string, string>) =>
      schema.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(problems({ EVENT_LOG: 'kafka' })).toEqual(['KAFKA_BROKERS: required when EVENT_LOG=kafka (host:port,…)']);
    expect(problems({ EVENT_LOG_SCHEMA: 'Log; drop', KAFKA_TOPIC_PREFIX: 'a b' })).toEqual([
      'EVENT_LOG_SCHEMA: must be a lowercase SQL identifier of at most 40 characters',
      'KAFKA_TOPIC_PREFIX: must be a Kafka topic name prefix (letters, digits, . _ -)',
    ]);
  });

  it('take every schema name the Postgres log takes, and none it refuses (validated at start, not at first use)', () => {
    for (const name of ['l'.repeat(40), 'l'.repeat(41), 'l'.repeat(51)]) {
      const accepted = schema.safeParse({ EVENT_LOG_SCHEMA: name }).success;
      const usable = (() => {
        try {
          postgresLogSchema(name);
          return true;
        } catch {
          return false;
        }
      })();
      expect({ name, accepted }).toEqual({ name, accepted: usable });
    }
  });
});
