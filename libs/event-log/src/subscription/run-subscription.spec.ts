import { blocksReverted, type EventEnvelope } from '@lottery/domain';
import type { LoggedEvent } from '../event-log.port';
import { type OpenEventSource, runSubscription } from './run-subscription';
import type { WakeSignal } from './wake-signal';

/**
 * An in-memory log: append() makes events readable and wakes the subscription like a NOTIFY would. A pull
 * returns at most `pullAtMost` events, as a Kafka reader returns what its fetches have buffered so far.
 */
function memoryLog(pullAtMost = Infinity) {
  const events: LoggedEvent[] = [];
  let wake: WakeSignal | undefined;
  const open: OpenEventSource = async (_from, signal) => {
    wake = signal;
    return {
      pull: async (from, max) => events.filter((e) => e.position >= from).slice(0, Math.min(max, pullAtMost)),
      close: async () => undefined,
    };
  };
  /** One transaction per size, each in a block of its own: purchases (its events share the tx hash). */
  const appendTransactions = (sizes: number[]): void => {
    for (const size of sizes) {
      const block = events.length + 1;
      for (let logIndex = 0; logIndex < size; logIndex++) {
        const event = { type: 'TicketPurchased', blockNumber: block, txHash: `0x${block.toString(16)}`, logIndex };
        events.push({ position: events.length * 2, event: event as unknown as EventEnvelope });
      }
    }
    wake?.notify();
  };
  const append = (count: number): void => {
    for (let i = 0; i < count; i++) {
      const position = events.length * 2; // gaps, as Kafka's transaction markers leave
      events.push({ position, event: blocksReverted(1, position, []) });
    }
    wake?.notify();
  };
  return { open, append, appendTransactions, events };
}

// On fake time: the subscription's waits and the test's are exact, however slow the machine.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Lets `ms` of fake time pass, running every timer and promise due within it. */
const elapse = (ms: number) => jest.advanceTimersByTimeAsync(ms);

describe('runSubscription', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('delivers what is there in batches of at most maxBatch, from the given position, in order', async () => {
    const log = memoryLog();
    log.append(25);
    const batches: number[][] = [];
    const subscription = runSubscription(log.open, 10, async (b) => void batches.push(b.map((e) => e.position)), {
      maxBatch: 8,
    });
    await elapse(50);
    await subscription.stop();
    expect(batches.map((b) => b.length)).toEqual([8, 8, 4]);
    expect(batches.flat()).toEqual(log.events.filter((e) => e.position >= 10).map((e) => e.position));
  });

  it('grows a batch with everything the source already holds, up to maxBatch, without waiting', async () => {
    const log = memoryLog(3);
    log.append(20);
    const batches: number[] = [];
    const subscription = runSubscription(log.open, 0, async (b) => void batches.push(b.length), { maxBatch: 8 });
    await elapse(50);
    await subscription.stop();
    expect(batches).toEqual([8, 8, 4]);
  });

  it('ends a batch that maxBatch would cut before that transaction, or after it when it is all the batch holds', async () => {
    const log = memoryLog(4);
    log.appendTransactions([3, 3, 3, 1, 9, 2]);
    const batches: LoggedEvent[][] = [];
    const subscription = runSubscription(log.open, 0, async (b) => void batches.push(b), { maxBatch: 8 });
    await elapse(50);
    await subscription.stop();
    const txs = (b: LoggedEvent[]) => [...new Set(b.map((e) => (e.event as { txHash: string }).txHash))];
    // the third transaction cut: 3+3; the fifth cut: 3+1; the fifth alone fills a batch: all 9 of it;
    // the last, as the log had no more
    expect(batches.map(txs)).toEqual([['0x1', '0x4'], ['0x7', '0xa'], ['0xb'], ['0x14']]);
    expect(batches.map((b) => b.length)).toEqual([6, 4, 9, 2]);
    expect(batches.flat()).toEqual(log.events);
  });

  it('waits for the rest of a transaction a full batch is part of, and delivers none of it when stopped meanwhile', async () => {
    // a source that has fetched 6 of a transaction's 9 events (Kafka hands out an append up to a fetched end)
    const log = memoryLog();
    log.appendTransactions([9]);
    const fetched = log.events.slice(0, 6);
    const open: OpenEventSource = async () => ({
      pull: async (from, max) => fetched.filter((e) => e.position >= from).slice(0, max),
      close: async () => undefined,
    });
    const batches: number[][] = [];
    const subscription = runSubscription(open, 0, async (b) => void batches.push(b.map((e) => e.position)), {
      maxBatch: 4,
    });
    await elapse(500);
    expect(batches).toEqual([]);
    const stopped = subscription.stop();
    await elapse(2_000);
    await stopped;
    expect(batches).toEqual([]);
  });

  it('by default delivers a batch as soon as the log has no more, rather than wait for later events', async () => {
    const log = memoryLog();
    const batches: number[] = [];
    const subscription = runSubscription(log.open, 0, async (b) => void batches.push(b.length));
    await elapse(20);
    log.append(1);
    await elapse(50);
    log.append(2);
    await elapse(50);
    await subscription.stop();
    expect(batches).toEqual([1, 2]);
  });

  it('lets a started batch collect what arrives within maxWaitMs, then delivers it', async () => {
    const log = memoryLog();
    const batches: LoggedEvent[][] = [];
    const subscription = runSubscription(log.open, 0, async (b) => void batches.push(b), { maxWaitMs: 200 });
    await elapse(20);
    log.append(1);
    await elapse(30);
    log.append(2);
    await elapse(400);
    log.append(1);
    await elapse(400);
    await subscription.stop();
    expect(batches.map((b) => b.length)).toEqual([3, 1]);
  });

  it('waits for onBatch before delivering the next batch', async () => {
    const log = memoryLog();
    let running = 0;
    let maxRunning = 0;
    let delivered = 0;
    const subscription = runSubscription(
      log.open,
      0,
      async (b) => {
        maxRunning = Math.max(maxRunning, ++running);
        await sleep(10);
        delivered += b.length;
        running--;
      },
      { maxBatch: 2, maxWaitMs: 1 },
    );
    log.append(10);
    while (delivered < 10) await elapse(5);
    await subscription.stop();
    expect(maxRunning).toBe(1);
  });

  it('ends with the error of a failing onBatch, through done and stop()', async () => {
    const log = memoryLog();
    log.append(1);
    const subscription = runSubscription(log.open, 0, async () => {
      throw new Error('fold failed');
    });
    await expect(subscription.done).rejects.toThrow('fold failed');
    await expect(subscription.stop()).rejects.toThrow('fold failed');
  });
});
