import { blocksReverted } from '@lottery/domain';
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
  const append = (count: number): void => {
    for (let i = 0; i < count; i++) {
      const position = events.length * 2; // gaps, as Kafka's transaction markers leave
      events.push({ position, event: blocksReverted(1, position, []) });
    }
    wake?.notify();
  };
  return { open, append, events };
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
