import { randomBytes } from 'node:crypto';
import { MAX_REORG_DEPTH } from '@lottery/chain';
import { blocksReverted, type EventEnvelope } from '@lottery/domain';
import {
  EventLogWriteConflictError,
  type EventLog,
  type LoggedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../src';
import { checkpointAt, ticketEvents, unserializableEvent } from './sample-events';

/** One log per test; open() gives another adapter instance over the same log (a process restart). */
export interface EventLogFixture {
  open(): EventLog;
}

/** Batches a subscription delivered, and a way to wait until it has delivered `count` events. */
class Collector {
  readonly batches: LoggedEvent[][] = [];
  private waiting: { count: number; resolve: () => void } | undefined;
  /** onBatch calls running at once: must never exceed 1. */
  maxConcurrent = 0;
  private running = 0;

  constructor(private readonly batchDelayMs = 0) {}

  get events(): LoggedEvent[] {
    return this.batches.flat();
  }

  readonly onBatch = async (batch: LoggedEvent[]): Promise<void> => {
    this.running++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.running);
    if (this.batchDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.batchDelayMs));
    this.batches.push(batch);
    this.running--;
    if (this.waiting && this.events.length >= this.waiting.count) this.waiting.resolve();
  };

  until(count: number, timeoutMs = 30_000): Promise<void> {
    if (this.events.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`received ${this.events.length} of ${count} events within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiting = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }
}

const eventsOf = (logged: LoggedEvent[]): EventEnvelope[] => logged.map((l) => l.event);

function expectIncreasingPositions(logged: LoggedEvent[]): void {
  for (let i = 1; i < logged.length; i++) expect(logged[i].position).toBeGreaterThan(logged[i - 1].position);
}

/**
 * The behaviour every EventLog adapter owes the indexer and the projectors, run against a real
 * Postgres and a real Kafka broker.
 */
export function describeEventLogContract(adapter: string, newFixture: () => Promise<EventLogFixture>): void {
  describe(`${adapter} event log (contract)`, () => {
    let fixture: EventLogFixture;
    const opened: EventLog[] = [];
    const subscriptions: Subscription[] = [];

    const open = async (): Promise<EventLog> => {
      const log = fixture.open();
      opened.push(log);
      await log.init();
      return log;
    };
    const subscribe = (log: EventLog, from: number, collector: Collector, opts?: SubscribeOptions): Subscription => {
      const subscription = log.subscribe(from, collector.onBatch, opts);
      subscriptions.push(subscription);
      return subscription;
    };

    beforeEach(async () => {
      fixture = await newFixture();
    });

    afterEach(async () => {
      await Promise.allSettled(subscriptions.splice(0).map((s) => s.stop()));
      await Promise.all(opened.splice(0).map((log) => log.close()));
    });

    it('init is idempotent, also from two instances at once, and a new log is empty', async () => {
      const log = await open();
      const second = fixture.open();
      opened.push(second);
      await Promise.all([log.init(), second.init()]);

      expect(await log.lastCheckpoint()).toBeNull();
      expect(await log.tail()).toBe(await log.head());
      expect(await log.read(await log.head(), 100)).toEqual([]);
    });

    it('refuses the second of two writers that both resumed from the empty log (two indexers started at once)', async () => {
      const [a, b] = [await open(), await open()];
      const resume = { resume: true };
      expect([await a.lastCheckpoint(resume), await b.lastCheckpoint(resume)]).toEqual([null, null]);
      await a.append(ticketEvents(2, 10), checkpointAt(11));
      await expect(b.append(ticketEvents(1, 10), checkpointAt(10))).rejects.toBeInstanceOf(EventLogWriteConflictError);
      expect(eventsOf(await a.read(await a.head(), 10))).toEqual(ticketEvents(2, 10));
      expect(await a.lastCheckpoint()).toEqual(checkpointAt(11));
    });

    it('an append that returned is readable, and a writer resuming right after it is handed its checkpoint', async () => {
      const log = await open();
      await log.lastCheckpoint({ resume: true });
      for (let block = 1; block <= 60; block++) {
        await log.append(ticketEvents(1, block), checkpointAt(block));
        // a follower restarted at once (a stall's abort): what it resumes from, and what a reader sees
        expect(await log.lastCheckpoint({ resume: true })).toEqual(checkpointAt(block));
        expect(await log.read(await log.head(), 100)).toHaveLength(block);
      }
    });

    it('keeps the checkpoint of the deepest reorg window the indexer takes', async () => {
      const log = await open();
      await log.lastCheckpoint({ resume: true });
      const deepest = checkpointAt(40_000_000, MAX_REORG_DEPTH + 1);
      await log.append(ticketEvents(1, 40_000_000), deepest);
      expect(await log.lastCheckpoint({ resume: true })).toEqual(deepest);
    });

    it('appends batches in order with their checkpoints and reads from any position', async () => {
      const log = await open();
      const [first, second] = [ticketEvents(3, 10), [...ticketEvents(4, 20), blocksReverted(8453, 20, ['0xaa'])]];
      await log.append(first, checkpointAt(10));
      await log.append([], checkpointAt(15)); // a range without lottery events still moves the checkpoint
      await log.append(second, checkpointAt(20));
      expect(await log.lastCheckpoint()).toEqual(checkpointAt(20));
      const all = await log.read(await log.head(), 100);
      expect(eventsOf(all)).toEqual([...first, ...second]);
      expectIncreasingPositions(all);
      expect(eventsOf(await log.read(all[2].position, 2))).toEqual([first[2], second[0]]);
      expect(eventsOf(await log.read(all[3].position + 1, 100))).toEqual(second.slice(1));
      const tail = await log.tail();
      expect(tail).toBeGreaterThan(all[all.length - 1].position);
      expect(await log.read(tail, 100)).toEqual([]);
    });

    it('a failed append leaves neither its events nor its checkpoint, and the next append works', async () => {
      const log = await open();
      const before = ticketEvents(5, 1);
      await log.append(before, checkpointAt(1));

      // Large enough that earlier chunks are written before the last one fails.
      const failing = [...ticketEvents(6_000, 100), unserializableEvent()];
      await expect(log.append(failing, checkpointAt(1_000))).rejects.toThrow(/BigInt/);
      expect(await log.lastCheckpoint()).toEqual(checkpointAt(1));
      expect(eventsOf(await log.read(await log.head(), 10_000))).toEqual(before);
      const after = ticketEvents(5, 2_000);
      await log.append(after, checkpointAt(2_000));
      expect(eventsOf(await log.read(await log.head(), 10_000))).toEqual([...before, ...after]);
      expect(await log.lastCheckpoint()).toEqual(checkpointAt(2_000));
    });

    it('carries 12,000 events appended at once to read() and to a subscriber in order, in batches <= maxBatch', async () => {
      const log = await open();
      const events = ticketEvents(12_000, 1);
      await log.append(events, checkpointAt(1_200));
      expect(eventsOf(await log.read(await log.head(), 20_000))).toEqual(events);
      const collector = new Collector();
      subscribe(log, await log.head(), collector, { maxBatch: 5_000 });
      await collector.until(events.length);
      expect(eventsOf(collector.events)).toEqual(events);
      expectIncreasingPositions(collector.events);
      expect(Math.max(...collector.batches.map((b) => b.length))).toBeLessThanOrEqual(5_000);
    });

    it("grows a full batch that is one chain transaction to the transaction's end, however it is fetched", async () => {
      const log = await open();
      // one transaction's 6,000 logs of 3 KB each (random: gzip cannot shrink them), several fetches' worth
      const events = ticketEvents(6_000, 7).map(
        (e, i) =>
          ({
            ...e,
            blockNumber: 7,
            txHash: `0x${'ab'.repeat(32)}`,
            logIndex: i,
            payload: { ...e.payload, junk: randomBytes(1_500).toString('hex') },
          }) as EventEnvelope,
      );
      await log.append(events, checkpointAt(7));
      const collector = new Collector();
      subscribe(log, await log.head(), collector, { maxBatch: 1_000 });
      await collector.until(events.length);
      expect(collector.batches.map((b) => b.length)).toEqual([events.length]);
      expect(eventsOf(collector.events)).toEqual(events);
    });

    it('splits appends across batches of any size, and resumes from a position inside an append', async () => {
      const log = await open();
      const appends = [ticketEvents(10, 1), ticketEvents(10, 2), ticketEvents(5, 3)];
      for (const [i, events] of appends.entries()) await log.append(events, checkpointAt(i + 1));
      const all = appends.flat();

      const collector = new Collector();
      subscribe(log, await log.head(), collector, { maxBatch: 7 });
      await collector.until(all.length);
      expect(eventsOf(collector.events)).toEqual(all);
      expectIncreasingPositions(collector.events);
      expect(Math.max(...collector.batches.map((b) => b.length))).toBeLessThanOrEqual(7);

      const resumed = new Collector();
      subscribe(log, collector.events[12].position + 1, resumed, { maxBatch: 4 });
      await resumed.until(all.length - 13);
      await new Promise((resolve) => setTimeout(resolve, 300)); // room for a wrongly repeated event to show
      expect(resumed.events).toEqual(collector.events.slice(13));
      expect(eventsOf(await log.read(collector.events[12].position + 1, 3))).toEqual(all.slice(13, 16));
    });

    it('ends a batch short of maxBatch only where an append ended, however the reads split the appends', async () => {
      const log = await open();
      const appends = [ticketEvents(30_000, 1), ticketEvents(30_000, 5_000), ticketEvents(7, 9_000)];
      for (const [i, events] of appends.entries()) await log.append(events, checkpointAt(i + 1));
      const appendEnds = new Set(appends.map((events) => events[events.length - 1].id));

      const collector = new Collector();
      subscribe(log, await log.head(), collector, { maxBatch: 100_000, maxWaitMs: 0 });
      await collector.until(60_007);
      expect(eventsOf(collector.events)).toEqual(appends.flat());
      for (const batch of collector.batches) expect(appendEnds).toContain(batch[batch.length - 1].event.id);
    });

    it('delivers events appended after subscribing within a second, one batch at a time, in order', async () => {
      const log = await open();
      const collector = new Collector(20);
      subscribe(log, await log.tail(), collector, { maxWaitMs: 50 });

      const started = Date.now();
      const first = ticketEvents(1, 1);
      await log.append(first, checkpointAt(1));
      await collector.until(1);
      const latencyMs = Date.now() - started;
      expect(latencyMs).toBeLessThan(1_000);

      const more = Array.from({ length: 20 }, (_, i) => ticketEvents(3, 10 + i));
      for (const [i, batch] of more.entries()) await log.append(batch, checkpointAt(10 + i));
      await collector.until(61);
      expect(eventsOf(collector.events)).toEqual([...first, ...more.flat()]);
      expect(collector.maxConcurrent).toBe(1);
    });

    it('a subscriber restarted from its stored position gets exactly the events after it, across log restarts', async () => {
      const writer = await open();
      const early = ticketEvents(10, 1);
      await writer.append(early, checkpointAt(1));
      const reader = await open();
      const firstRun = new Collector();
      const subscription = subscribe(reader, await reader.head(), firstRun);
      await firstRun.until(10);
      await subscription.stop();
      const stored = firstRun.events[firstRun.events.length - 1].position;

      // Both processes restart; the indexer appends while the projector is down.
      await Promise.all([writer.close(), reader.close()]);
      const late = ticketEvents(10, 50);
      await (await open()).append(late, checkpointAt(50));
      const secondRun = new Collector();
      subscribe(await open(), stored + 1, secondRun);
      await secondRun.until(10);
      await new Promise((resolve) => setTimeout(resolve, 300)); // room for a wrongly repeated event to show
      expect(eventsOf(secondRun.events)).toEqual(late);
      expect(eventsOf(firstRun.events)).toEqual(early);
    });

    it('stop() waits for the running onBatch; an onBatch failure ends the subscription with that error', async () => {
      const log = await open();
      await log.append(ticketEvents(3, 1), checkpointAt(1));
      const failing = log.subscribe(await log.head(), async () => {
        throw new Error('projector failed');
      });
      await expect(failing.done).rejects.toThrow('projector failed');
      await expect(failing.stop()).rejects.toThrow('projector failed');

      let finished = false;
      let started: () => void = () => undefined;
      const onBatchStarted = new Promise<void>((resolve) => (started = resolve));
      const slow = log.subscribe(await log.head(), async () => {
        started();
        await new Promise((resolve) => setTimeout(resolve, 200));
        finished = true;
      });
      await onBatchStarted;
      await slow.stop();
      expect(finished).toBe(true);
      await expect(slow.done).resolves.toBeUndefined();
    });
  });
}
