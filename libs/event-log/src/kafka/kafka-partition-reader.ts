import { randomUUID } from 'node:crypto';
import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { WakeSignal } from '../subscription/wake-signal';

/** One committed record of a single-partition topic. */
export interface KafkaRecord {
  offset: number;
  value: Buffer;
}

export interface PartitionReaderOptions {
  kafka: Kafka;
  clientId: string;
  topic: string;
  fromOffset: number;
  /** Fetched records held before the fetch loop waits for the reader to take some (backpressure). */
  bufferLimit: number;
  /** Called when records arrive or the fetch position moves (e.g. past transaction markers). */
  onProgress: () => void;
}

/** Long-poll bound of each fetch: new records still arrive at once; it bounds how long close() takes. */
const FETCH_MAX_WAIT_MS = 250;
const HEARTBEAT_EVERY_MS = 3_000;

/**
 * Reads partition 0 of a topic from an offset, committed records only, into a bounded buffer.
 *
 * kafkajs has no manual partition assignment, so each reader is the only member of a throwaway
 * consumer group and seeks to its offset; it commits nothing, because consumers keep their position
 * in their own database. If kafkajs rejoins the group (a session timeout, a restarted runner), the
 * reader seeks again to where it was and drops any record it already has.
 */
export class KafkaPartitionReader {
  private readonly buffer: KafkaRecord[] = [];
  private readonly drained = new WakeSignal();
  private fetchedThrough: number;
  private failure: Error | undefined;
  private closing = false;

  private constructor(
    private readonly consumer: Consumer,
    private readonly options: PartitionReaderOptions,
  ) {
    this.fetchedThrough = options.fromOffset;
  }

  static async open(options: PartitionReaderOptions): Promise<KafkaPartitionReader> {
    const consumer = options.kafka.consumer({
      groupId: `${options.clientId}.reader.${randomUUID()}`,
      maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
      allowAutoTopicCreation: false,
    });
    const reader = new KafkaPartitionReader(consumer, options);
    try {
      await reader.start();
    } catch (error) {
      await consumer.disconnect();
      throw error;
    }
    return reader;
  }

  /** The offset after the last record fetched, counting transaction markers and aborted records. */
  get position(): number {
    return this.fetchedThrough;
  }

  /** Takes up to `max` buffered records at offsets >= `from`; throws if the reader failed. */
  take(from: number, max: number): KafkaRecord[] {
    if (this.failure) throw this.failure;
    let skip = 0;
    while (skip < this.buffer.length && this.buffer[skip].offset < from) skip++;
    const taken = this.buffer.splice(0, skip + max).slice(skip);
    if (this.buffer.length < this.options.bufferLimit) this.drained.notify();
    return taken;
  }

  /**
   * Like `take`, but short of `max` only at the end of an append: a fetch may deliver part of a
   * transaction's records, and a subscriber that commits per batch must not end one inside an append
   * (half a chain transaction). Within a transaction offsets are consecutive, and its commit marker takes
   * the next one: a record is the last of its append once an offset after it holds no record (the
   * marker, or an aborted append's records), seen as the next buffered record's offset or as the fetch
   * position moved past it. What follows the last such record stays buffered until its marker arrives.
   */
  takeWholeAppends(from: number, max: number): KafkaRecord[] {
    if (this.failure) throw this.failure;
    let first = 0;
    while (first < this.buffer.length && this.buffer[first].offset < from) first++;
    const available = Math.min(max, this.buffer.length - first);
    if (available === max) return this.take(from, max);
    let end = first + available;
    const ends = (i: number) => (this.buffer[i + 1]?.offset ?? this.fetchedThrough) > this.buffer[i].offset + 1;
    while (end > first && !ends(end - 1)) end--;
    return end === first ? [] : this.take(from, end - first);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.drained.notify();
    await this.consumer.disconnect();
  }

  private async start(): Promise<void> {
    const { consumer, options } = this;
    const seekToPosition = (): void =>
      consumer.seek({ topic: options.topic, partition: 0, offset: String(this.fetchedThrough) });
    consumer.on(consumer.events.GROUP_JOIN, seekToPosition);
    // Batches of only transaction markers or aborted records never reach eachBatch; this sees them too.
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => this.advance(Number(payload.lastOffset) + 1));
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart) this.fail(payload.error);
    });
    await consumer.connect();
    // fromBeginning: should a fetch ever run before the seek applies, it re-reads (and drops) rather than skips.
    await consumer.subscribe({ topic: options.topic, fromBeginning: true });
    consumer
      .run({ autoCommit: false, eachBatch: (payload) => this.receive(payload) })
      .catch((error: Error) => this.fail(error));
    seekToPosition();
  }

  private async receive({ batch, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    if (!isRunning() || isStale()) return;
    for (const message of batch.messages) {
      const offset = Number(message.offset);
      if (offset >= this.fetchedThrough && message.value) this.buffer.push({ offset, value: message.value });
    }
    this.advance(Number(batch.lastOffset()) + 1);
    // Holding eachBatch is kafkajs's backpressure: it fetches no more until this returns.
    while (this.buffer.length >= this.options.bufferLimit && !this.closing && isRunning()) {
      await this.drained.wait(HEARTBEAT_EVERY_MS);
      await heartbeat();
    }
  }

  private advance(offset: number): void {
    if (offset <= this.fetchedThrough) return;
    this.fetchedThrough = offset;
    this.options.onProgress();
  }

  private fail(error: Error): void {
    this.failure = error;
    this.options.onProgress();
  }
}
