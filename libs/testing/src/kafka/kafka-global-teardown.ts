/** jest globalTeardown: stops the broker kafka-global-setup started (an external one is left alone). */
import { KAFKA_BROKERS_ENV } from './kafka-brokers';
import { takeRunBroker } from './run-broker';

export default async function kafkaGlobalTeardown(): Promise<void> {
  const broker = takeRunBroker();
  if (!broker) return;
  // Forget it too, or a watch-mode rerun would take the stopped broker for an external one.
  delete process.env[KAFKA_BROKERS_ENV];
  await broker.stop();
}
