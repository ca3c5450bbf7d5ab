import { kafkaBrokers, startKafka, uniqueName } from '@lottery/testing';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { createEventLog, type EventLog, EventLogWriteConflictError, type LoggedEvent } from '../src';
import { describeEventLogContract } from './event-log-contract';
import { checkpointAt, ticketEvents } from './sample-events';

jest.setTimeout(60_000);

describeEventLogContract('kafka', async () => {
  const topicPrefix = uniqueName('log');
  return { open: () => createEventLog({ kind: 'kafka', brokers: kafkaBrokers(), chainId: 8453, topicPrefix }) };
});

/**
 * Reads batches of `max` from `from` until `count` events arrived, calling `after` for each (an empty read
 * is tried again, within 30 s).
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

describe('kafka event log writers', () => {
  const openOn = (topicPrefix: string) =>
    createEventLog({ kind: 'kafka', brokers: kafkaBrokers(), chainId: 8453, topicPrefix });
  /**
   * The checkpoint `log` reads once it is `block` (another process's append, read within 15 s); the log's
   * writer goes on from it.
   */
  const checkpointBecomes = async (log: EventLog, block: number) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const seen = (await log.lastCheckpoint({ resume: true }))?.blockNumber;
      if (seen === block) return;
      if (Date.now() > deadline) throw new Error(`checkpoint ${seen} never became ${block}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const checkpointOf = async (topicPrefix: string, block: number) => {
    const log = openOn(topicPrefix);
    try {
      await checkpointBecomes(log, block);
    } finally {
      await log.close();
    }
  };

  it("refuses the append of a writer that has not seen ops reindex's rewind, until it reads the checkpoint again", async () => {
    const topicPrefix = uniqueName('log');
    const setup = openOn(topicPrefix);
    await setup.init();
    await setup.append(ticketEvents(3), checkpointAt(100));
    await setup.close();
    const indexer = openOn(topicPrefix);
    try {
      await checkpointBecomes(indexer, 100);
      // ops reindex, beside the running indexer: it reads the checkpoint, then appends the rewind
      const reindex = openOn(topicPrefix);
      await checkpointBecomes(reindex, 100);
      await reindex.append([], checkpointAt(50));
      await reindex.close();

      await expect(indexer.append([], checkpointAt(101))).rejects.toBeInstanceOf(EventLogWriteConflictError);
      await checkpointOf(topicPrefix, 50);
      await checkpointBecomes(indexer, 50);
      await indexer.append(ticketEvents(1, 51), checkpointAt(51));
      await checkpointOf(topicPrefix, 51);
    } finally {
      await indexer.close();
    }
  });

  it('a writer fenced by another appends again once it has read the checkpoint the other left', async () => {
    const topicPrefix = uniqueName('log');
    const [a, b] = [openOn(topicPrefix), openOn(topicPrefix)];
    try {
      await a.init();
      await a.append(ticketEvents(1, 1), checkpointAt(1));
      // the other registers the same transactional id: the first's producer is fenced
      await checkpointBecomes(b, 1);
      await b.append(ticketEvents(1, 2), checkpointAt(2));
      await expect(a.append(ticketEvents(1, 3), checkpointAt(3))).rejects.toThrow();
      await checkpointBecomes(a, 2);
      await a.append(ticketEvents(1, 3), checkpointAt(3));
      await checkpointOf(topicPrefix, 3);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('kafka event log retention', () => {
  it('refuses to read or follow from below records the broker deleted, instead of skipping them', async () => {
    const topicPrefix = uniqueName('log');
    const log = createEventLog({ kind: 'kafka', brokers: kafkaBrokers(), chainId: 8453, topicPrefix });
    const admin = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    try {
      await log.init();
      const events = ticketEvents(20);
      await log.append(events.slice(0, 10), checkpointAt(1));
      await log.append(events.slice(10), checkpointAt(2));
      await admin.connect();
      await admin.fetchTopicMetadata({ topics: [`${topicPrefix}.events.8453`] });
      // what a retention setting on the topic does to the log's first records
      await admin.deleteTopicRecords({
        topic: `${topicPrefix}.events.8453`,
        partitions: [{ partition: 0, offset: '13' }],
      });
      expect(await log.head()).toBe(13);
      await expect(log.read(2, 100)).rejects.toThrow(/starts at offset 13: the events from 2 were deleted/);
      const subscription = log.subscribe(2, async () => undefined);
      await expect(subscription.done).rejects.toThrow(/the events from 2 were deleted/);
      // from the head on, nothing is missing
      expect((await log.read(13, 100)).length).toBeGreaterThan(0);
    } finally {
      await admin.disconnect();
      await log.close();
    }
  });
});

describe('kafka event log topics made beforehand', () => {
  let admin: Admin;
  beforeAll(async () => {
    admin = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
  });
  afterAll(() => admin.disconnect());

  async function makeTopic(topic: string, numPartitions: number, config: Record<string, string>) {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic,
          numPartitions,
          replicationFactor: 1,
          configEntries: Object.entries(config).map(([name, value]) => ({ name, value })),
        },
      ],
    });
  }

  async function initLog(topicPrefix: string, durability: { replicationFactor?: number; minInsyncReplicas?: number }) {
    const log = createEventLog({ kind: 'kafka', brokers: kafkaBrokers(), chainId: 8453, topicPrefix, ...durability });
    try {
      await log.init();
    } finally {
      await log.close();
    }
  }

  /** init() of a log whose topic `which` an operator created with these settings. */
  async function initOver(which: 'events' | 'checkpoints', numPartitions: number, config: Record<string, string>) {
    const topicPrefix = uniqueName('made');
    await makeTopic(`${topicPrefix}.${which}.8453`, numPartitions, config);
    await initLog(topicPrefix, {});
  }

  const forever = { 'cleanup.policy': 'delete', 'retention.ms': '-1', 'retention.bytes': '-1' };

  it('are used when they keep every event, whatever else they set', async () => {
    await expect(initOver('events', 1, { ...forever, 'segment.bytes': String(1 << 20) })).resolves.toBeUndefined();
    await expect(initOver('checkpoints', 1, { 'cleanup.policy': 'compact' })).resolves.toBeUndefined();
    await expect(initOver('checkpoints', 1, forever)).resolves.toBeUndefined();
  });

  it('are refused when they would lose events, reorder them or forget the checkpoint, saying how to fix them', async () => {
    await expect(initOver('events', 3, forever)).rejects.toThrow(/has 3 partitions; the event log needs exactly 1/);
    await expect(initOver('events', 1, { ...forever, 'retention.ms': String(7 * 86_400_000) })).rejects.toThrow(
      /would lose events \(cleanup.policy=delete, retention.ms=604800000, retention.bytes=-1\).*retention.ms=-1/,
    );
    await expect(initOver('events', 1, { ...forever, 'retention.bytes': String(1 << 30) })).rejects.toThrow(
      /would lose events .*retention.bytes=1073741824/,
    );
    await expect(initOver('events', 1, { ...forever, 'cleanup.policy': 'compact' })).rejects.toThrow(
      /would lose events \(cleanup.policy=compact/,
    );
    await expect(
      initOver('checkpoints', 1, { 'cleanup.policy': 'delete', 'retention.ms': '86400000' }),
    ).rejects.toThrow(/would delete the indexer's latest checkpoint .*set cleanup.policy=compact/);
    for (const topic of ['events', 'checkpoints'] as const) {
      const settings = topic === 'events' ? forever : { 'cleanup.policy': 'compact' };
      await expect(initOver(topic, 1, { ...settings, 'unclean.leader.election.enable': 'true' })).rejects.toThrow(
        /may lose acknowledged appends when its leader fails \(unclean.leader.election.enable=true\)/,
      );
    }
  });

  it('are refused when they keep fewer copies of an acknowledged append than the log is configured for, or could acknowledge none', async () => {
    // both made beforehand: this cluster is one broker, which could not make the missing one with 3 replicas
    const made = async (events: Record<string, string>, checkpoints: Record<string, string>) => {
      const prefix = uniqueName('made');
      await makeTopic(`${prefix}.events.8453`, 1, { ...forever, ...events });
      await makeTopic(`${prefix}.checkpoints.8453`, 1, { 'cleanup.policy': 'compact', ...checkpoints });
      return prefix;
    };
    await expect(initLog(await made({}, {}), { replicationFactor: 3 })).rejects.toThrow(
      /topic made_\S+\.events\.8453 has 1 replica\(s\) where the log asks for 3 \(KAFKA_REPLICATION_FACTOR\) and min.insync.replicas=1 where the log asks for 2 \(KAFKA_MIN_INSYNC_REPLICAS\)/,
    );
    // min.insync.replicas above a topic's replicas: the broker would refuse every append
    const insync = { 'min.insync.replicas': '2' };
    await expect(initLog(await made(insync, {}), {})).rejects.toThrow(
      /topic made_\S+\.events\.8453 would acknowledge no append: min.insync.replicas=2 but 1 replica\(s\)/,
    );
    await expect(initLog(await made({}, insync), {})).rejects.toThrow(
      /topic made_\S+\.checkpoints\.8453 would acknowledge no append/,
    );
    await expect(initLog(await made({}, {}), {})).resolves.toBeUndefined();
  });
});
