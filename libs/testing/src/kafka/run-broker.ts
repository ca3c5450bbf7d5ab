import type { KafkaBroker } from './kafka-broker';

/**
 * jest loads globalSetup and globalTeardown as separate modules in the same process: the broker is
 * handed over through globalThis, under a registry symbol so no other code can clash with it.
 */
const RUN_BROKER = Symbol.for('@lottery/testing.kafka-run-broker');
const holder = globalThis as typeof globalThis & { [RUN_BROKER]?: KafkaBroker };

export function setRunBroker(broker: KafkaBroker): void {
  holder[RUN_BROKER] = broker;
}

export function takeRunBroker(): KafkaBroker | undefined {
  const broker = holder[RUN_BROKER];
  delete holder[RUN_BROKER];
  return broker;
}
