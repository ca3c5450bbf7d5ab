/**
 * jest globalSetup: one real broker per jest run, shared by every suite of the project. Workers are
 * forked after this runs, so they inherit KAFKA_BROKERS; suites isolate themselves by topic name.
 * With KAFKA_BROKERS already set (a CI service, a docker compose broker), that broker is used instead.
 */
import { startKafka } from './kafka-broker';
import { KAFKA_BROKERS_ENV } from './kafka-brokers';
import { setRunBroker } from './run-broker';

export default async function kafkaGlobalSetup(): Promise<void> {
  if (process.env[KAFKA_BROKERS_ENV]) return;
  const broker = await startKafka();
  setRunBroker(broker);
  process.env[KAFKA_BROKERS_ENV] = broker.brokers.join(',');
}
