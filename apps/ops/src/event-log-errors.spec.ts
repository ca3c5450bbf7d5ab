import { logSetting } from './event-log-errors';

describe('logSetting', () => {
  it('names every variable that picks the log, so a refusal points at the one that is wrong', () => {
    expect(logSetting({ kind: 'postgres', databaseUrl: 'postgres://db/x' })).toBe(
      'EVENT_LOG=postgres, EVENT_LOG_SCHEMA=event_log',
    );
    expect(logSetting({ kind: 'kafka', brokers: ['k1:9092', 'k2:9092'], chainId: 8453, topicPrefix: 'prod' })).toBe(
      'EVENT_LOG=kafka, KAFKA_BROKERS=k1:9092,k2:9092, KAFKA_TOPIC_PREFIX=prod',
    );
    expect(logSetting({ kind: 'kafka', brokers: ['k1:9092'], chainId: 8453 })).toBe(
      'EVENT_LOG=kafka, KAFKA_BROKERS=k1:9092, KAFKA_TOPIC_PREFIX=lottery',
    );
  });
});
