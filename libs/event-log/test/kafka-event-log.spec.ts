import { kafkaBrokers, startKafka, uniqueName } from '@lottery/testing';
import { Kafka, logLevel } from 'kafkajs';
import { createEventLog, type EventLog, type LoggedEvent } from '../src';
import { describeEventLogContract } from './event-log-contract';
import { checkpointAt, ticketEvents } from './sample-events';

jest.setTimeout(60_000);

describeEventLogContract('kafka', async () => {
  const topicPrefix = uniqueName('log');
  return { open: () => createEventLog({ kind: 'kafka', brokers: kafkaBrokers(), chainId: 8453, topicPrefix }) };
});

/**
 * Reads batches of `max` from `from` until `count` events arrived, calling `after` for each: a commit's
 * markers reach the topic's stable end a moment after append() returns, so an early read may be empty.
 */
async function readBatches(
  log: EventLog,
  from: number,
  max: number,
  count: number,
  after: (batch: LoggedEvent[]) => Promise<void> = async () => undefined,
): Promise<LoggedEvent[][]> {
  const batches: LoggedEvent[][] = [];
  const deadline = Date.now() + 30_000;
  for (let read = 0; read < count;) {
    if (Date.now() > deadline) throw new Error(`read ${read} of ${count} events within 30 s`);
    const batch = await log.read(from, max);
    if (batch.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    batches.push(batch);
    read += batch.length;
    from = batch[batch.length - 1].position + 1;
    await after(batch);
  }
  return batches;
}

describe('kafka event log reads', () => {
  it('continues a read where the last one ended on the same reader; a read elsewhere opens its own', async () => {
    const clientId = uniqueName('reads');
    const log = createEventLog({
      kind: 'kafka',
      brokers: kafkaBrokers(),
      chainId: 8453,
      topicPrefix: uniqueName('log'),
      clientId,
    });
    const admin = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    // each reader is the one member of a consumer group of its own
    const readerGroups = async () =>
      (await admin.listGroups()).groups.map((g) => g.groupId).filter((id) => id.startsWith(`${clientId}.reader.`));
    try {
      await admin.connect();
      await log.init();
      const events = ticketEvents(900);
      await log.append(events.slice(0, 600), checkpointAt(60));
      await log.append(events.slice(600), checkpointAt(90));
      const groupsSeen = new Set<string>();
      const batches = await readBatches(log, await log.head(), 250, events.length, async () => {
        for (const group of await readerGroups()) groupsSeen.add(group);
      });
      expect(batches.flat().map((logged) => logged.event)).toEqual(events);
      expect(batches.map((batch) => batch.length)).toEqual([250, 250, 250, 150]);
      expect(groupsSeen.size).toBe(1);

      const elsewhere = await log.read(batches[1][10].position, 5);
      expect(elsewhere.map((logged) => logged.event)).toEqual(events.slice(260, 265));
      expect((await readerGroups()).filter((group) => !groupsSeen.has(group))).toHaveLength(1);
    } finally {
      await log.close();
      await admin.disconnect();
    }
  });

  it('goes on reading where it ended after the broker restarted under the reader it kept', async () => {
    const broker = await startKafka();
    const log = createEventLog({
      kind: 'kafka',
      brokers: broker.brokers,
      chainId: 8453,
      topicPrefix: uniqueName('log'),
    });
    try {
      await log.init();
      const events = ticketEvents(500);
      await log.append(events, checkpointAt(50));
      const [first] = await readBatches(log, await log.head(), 200, 1);
      await broker.restart();
      const rest = await readBatches(log, first[first.length - 1].position + 1, 200, events.length - first.length);
      expect([first, ...rest].flat().map((logged) => logged.event)).toEqual(events);
    } finally {
      await log.close();
      await broker.stop();
    }
  }, 120_000);
});
