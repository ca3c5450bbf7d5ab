import { ConfigError } from '@lottery/telemetry';
import { loadProjectorConfig } from './config';

describe('projector configuration', () => {
  const base = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/lottery', CHAIN_ID: '8453' };

  it('defaults to the embedded Postgres log and the lottery schema', () => {
    expect(loadProjectorConfig(base)).toMatchObject({
      EVENT_LOG: 'postgres',
      EVENT_LOG_SCHEMA: 'lottery_log',
      READ_SCHEMA: 'lottery',
      CHAIN_ID: 8453,
      METRICS_PORT: 9464,
      BATCH_MAX_EVENTS: 20000,
      REORG_WINDOW_BLOCKS: 256,
      READY_MAX_LAG_EVENTS: 1000,
    });
  });

  it('names every missing or malformed variable in one error', () => {
    const error = (() => {
      try {
        loadProjectorConfig({
          EVENT_LOG: 'kafka',
          READ_SCHEMA: 'Lottery',
          METRICS_PORT: '70000',
          LOG_LEVEL: 'verbose',
        });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const variable of ['DATABASE_URL', 'CHAIN_ID', 'READ_SCHEMA', 'METRICS_PORT', 'LOG_LEVEL'])
      expect(message).toContain(variable);
  });

  it("refuses a READ_SCHEMA named like another schema's replay generation", () => {
    expect(() => loadProjectorConfig({ ...base, READ_SCHEMA: 'lottery_next' })).toThrow(
      /READ_SCHEMA: cannot end in _next or _retired \("lottery_next"\): a replay of the schema "lottery"/,
    );
    expect(() => loadProjectorConfig({ ...base, READ_SCHEMA: 'lottery_retired' })).toThrow(/READ_SCHEMA/);
    expect(loadProjectorConfig({ ...base, READ_SCHEMA: 'lottery_nextgen' }).READ_SCHEMA).toBe('lottery_nextgen');
  });

  it('requires brokers for the Kafka log', () => {
    expect(() => loadProjectorConfig({ ...base, EVENT_LOG: 'kafka' })).toThrow(
      /KAFKA_BROKERS: required when EVENT_LOG=kafka/,
    );
    expect(loadProjectorConfig({ ...base, EVENT_LOG: 'kafka', KAFKA_BROKERS: 'k:9092' }).KAFKA_BROKERS).toBe('k:9092');
  });

  it('refuses a readiness lag of 0 on Kafka, which a caught-up projector never reaches there', () => {
    const kafka = { ...base, EVENT_LOG: 'kafka', KAFKA_BROKERS: 'k:9092' };
    expect(() => loadProjectorConfig({ ...kafka, READY_MAX_LAG_EVENTS: '0' })).toThrow(
      /READY_MAX_LAG_EVENTS: must be at least 1 with EVENT_LOG=kafka/,
    );
    expect(loadProjectorConfig({ ...kafka, READY_MAX_LAG_EVENTS: '1' }).READY_MAX_LAG_EVENTS).toBe(1);
    expect(loadProjectorConfig({ ...base, READY_MAX_LAG_EVENTS: '0' }).READY_MAX_LAG_EVENTS).toBe(0);
  });
});
