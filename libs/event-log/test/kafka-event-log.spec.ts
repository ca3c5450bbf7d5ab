import { kafkaBrokers, uniqueName } from '@lottery/testing';
import { Kafka, logLevel } from 'kafkajs';
import { createEventLog, type LoggedEvent } from '../src';
import { describeEventLogContract } from './event-log-contract';
import { checkpointAt, ticketEvents } from './sample-events';

jest.setTimeout(60_000);

describeEventLogContract('kafka', async () => {
  const topicPrefix = uniqueName('log');
  return { open: () => createEventLog({ kind: 'kafka', brokers: kafkaBrokers(), chainId: 8453, topicPrefix }) };
});

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
      const batches: LoggedEvent[][] = [];
      const groupsSeen = new Set<string>();
      for (let from = await log.head(); ;) {
        const batch = await log.read(from, 250);
        if (batch.length === 0) break;
        batches.push(batch);
        from = batch[batch.length - 1].position + 1;
        for (const group of await readerGroups()) groupsSeen.add(group);
      }
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
});
