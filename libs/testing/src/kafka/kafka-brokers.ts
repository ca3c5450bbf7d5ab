/** Where the run's broker is: set by the jest globalSetup of libs/testing (or by hand for an external one). */
export const KAFKA_BROKERS_ENV = 'KAFKA_BROKERS';

/** The brokers of the run's Kafka, from KAFKA_BROKERS (comma-separated host:port). */
export function kafkaBrokers(): string[] {
  const value = process.env[KAFKA_BROKERS_ENV];
  if (!value) {
    throw new Error(
      `${KAFKA_BROKERS_ENV} is not set: this suite needs the run's Kafka broker. Spread ` +
        "`...require('../testing/jest-kafka.js')` into the project's jest.config.js (it starts one broker " +
        'per jest run), or set KAFKA_BROKERS to a running Kafka 3.9 broker.',
    );
  }
  return value.split(',').map((broker) => broker.trim());
}
