import type { EventEnvelope, IndexerCheckpoint } from '@lottery/domain';
import { type Admin, CompressionTypes, Kafka, logLevel, type Producer } from 'kafkajs';
import { encodeInChunks } from '../encode-in-chunks';
import type {
  CheckpointReadOptions,
  EventLog,
  LoggedEvent,
  OnBatch,
  SubscribeOptions,
  Subscription,
} from '../event-log.port';
import { LiveSubscriptions } from '../subscription/live-subscriptions';
import { DEFAULT_MAX_BATCH, runSubscription } from '../subscription/run-subscription';
import { WakeSignal } from '../subscription/wake-signal';
import { useSizedGzipCodec } from './gzip-codec';
import { kafkaLogCreator } from './kafkajs-logger';
import { LazyClient } from './lazy-client';
import { KafkaPartitionReader, type KafkaRecord } from './kafka-partition-reader';
import { ensureLogTopics, type KafkaLogTopics, kafkaLogTopics, MAX_MESSAGE_BYTES } from './kafka-topics';
import { EventLogWriteConflictError } from '../write-conflict';
import { WriterView } from '../writer-view';

export interface KafkaEventLogConfig {
  brokers: string[];
  chainId: number;
  /** Topics are `<prefix>.events.<chainId>` and `<prefix>.checkpoints.<chainId>`. Default "lottery". */
  topicPrefix?: string;
  /** Default "lottery-event-log". */
  clientId?: string;
  /**
   * One per chain: a second indexer with the same id fences the first (its appends then fail), which
   * is what makes the indexer a single writer. Default `<prefix>.indexer.<chainId>`.
   */
  transactionalId?: string;
  /** Default 1 (a single broker); 3 in a production cluster. */
  replicationFactor?: number;
  /** Default one less than replicationFactor, at least 1: 2 with replicationFactor 3. */
  minInsyncReplicas?: number;
}

/** The topics' prefix when none is configured. */
export const DEFAULT_TOPIC_PREFIX = 'lottery';
/**
 * Several requests per transaction rather than one oversized record batch: a quarter of the topics'
 * max.message.bytes even before gzip, so a chunk always fits.
 */
const SEND_CHUNK = { maxEvents: 5_000, maxBytes: MAX_MESSAGE_BYTES / 4 };
/** What a writer that resumed from an empty log expects to find before its first append: no checkpoint. */
const NO_CHECKPOINT = -1;

/** How long read() and lastCheckpoint() wait for the broker before giving up. */
const READ_TIMEOUT_MS = 30_000;
/** A reader kept for the read that continues where the last one ended is closed after this long unused. */
const RESUMABLE_IDLE_MS = 10_000;

/**
 * How many records a held reader buffers ahead: a batch's worth, at least 10,000, at most 100,000 (a
 * read of the whole log must not make it fetch the whole topic while it waits).
 */
const resumableBuffer = (maxEvents: number): number => Math.max(10_000, Math.min(maxEvents, 100_000));

/** The events reader a read() left open, positioned for the read that starts at `next`. */
interface ResumableReader {
  reader: KafkaPartitionReader;
  wake: WakeSignal;
  next: number;
  idle: NodeJS.Timeout;
}

/** How often offsets are asked for while the broker answers that it cannot tell yet (a retriable error). */
const OFFSETS_ATTEMPTS = 6;
/**
 * How long a committed append may stay unreadable (its markers unwritten) before the append fails: the
 * writer then builds on nothing it has not seen (its next append, on a fresh producer, checks the log).
 */
const COMMIT_VISIBLE_TIMEOUT_MS = 30_000;

/** The production log: one single-partition topic per chain, written in Kafka transactions. */
export class KafkaEventLog implements EventLog {
  private readonly kafka: Kafka;
  private readonly topics: KafkaLogTopics;
  private readonly key: Buffer;
  private readonly clientId: string;
  private readonly subscriptions = new LiveSubscriptions();
  private readonly admin: LazyClient<Admin>;
  /**
   * Connected on the first append only: readers (projectors) never register the transactional id,
   * which would fence the indexer's producer.
   */
  private readonly producer: LazyClient<Producer>;
  /** Appends run one after another: a producer has one transaction open at a time. */
  private appending: Promise<unknown> = Promise.resolve();
  /**
   * Opening a reader joins a throwaway consumer group, a few hundred milliseconds: a replay reading the
   * log batch after batch kept paying that per batch. The reader of a read() stays open for the read that
   * continues where it ended, and fetches ahead meanwhile.
   */
  private resumable: ResumableReader | undefined;
  private closed = false;
  /**
   * The offset of the newest checkpoint record its writer has seen (WriterView). Transactional ids fence
   * an older producer, not an older view: a writer that read the checkpoint, then was overtaken by
   * another (ops reindex's rewind, a second indexer) before its producer registered, would append on
   * top of the stale one. So a producer, once registered (which fences every other and aborts their
   * open transaction), first checks that the newest committed checkpoint is still the one seen.
   */
  private readonly writer = new WriterView<number>();
  /** The producer whose registration passed that check. */
  private checkedProducer: Producer | undefined;

  constructor(private readonly config: KafkaEventLogConfig) {
    const prefix = config.topicPrefix ?? DEFAULT_TOPIC_PREFIX;
    this.clientId = config.clientId ?? 'lottery-event-log';
    useSizedGzipCodec();
    this.kafka = new Kafka({
      clientId: this.clientId,
      brokers: config.brokers,
      logLevel: logLevel.WARN,
      logCreator: kafkaLogCreator,
    });
    this.topics = kafkaLogTopics(prefix, config.chainId);
    this.admin = new LazyClient(() => this.kafka.admin());
    this.producer = new LazyClient(() =>
      this.kafka.producer({
        transactionalId: config.transactionalId ?? `${prefix}.indexer.${config.chainId}`,
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        // Both topics have one partition (init checks the events topic's): kafkajs's default partitioner
        // filtered the partition list and hashed the key for every record, a visible share of an append.
        createPartitioner: () => () => 0,
      }),
    );
    // The chain id as the partition key, should the topic ever hold several chains; with one partition it
    // only labels the records. A Buffer, as kafkajs would otherwise convert the string once per record.
    this.key = Buffer.from(String(config.chainId));
  }

  async init(): Promise<void> {
    const replicationFactor = this.config.replicationFactor ?? 1;
    await ensureLogTopics(await this.admin.get(), this.topics, {
      replicationFactor,
      minInsyncReplicas: this.config.minInsyncReplicas ?? Math.max(1, replicationFactor - 1),
    });
  }

  append(events: EventEnvelope[], checkpoint: IndexerCheckpoint): Promise<void> {
    const appended = this.appending.then(() => this.appendInTransaction(events, checkpoint));
    this.appending = appended.catch(() => undefined);
    return appended;
  }

  async lastCheckpoint(options?: CheckpointReadOptions): Promise<IndexerCheckpoint | null> {
    const latest = await this.latestCheckpointRecord();
    if (options?.resume) this.writer.resumedAt(latest?.offset ?? NO_CHECKPOINT);
    if (!latest) return null;
    return JSON.parse(latest.value.toString('utf8')) as IndexerCheckpoint;
  }

  /** The newest committed checkpoint record. */
  private async latestCheckpointRecord(): Promise<KafkaRecord | undefined> {
    const { low, high } = await this.offsets(this.topics.checkpoints);
    // Each append adds one record and one commit marker; aborted appends add more. Look at the end
    // first and widen only if that window holds no committed record.
    for (let window = 16; ; window *= 4) {
      const from = Math.max(low, high - window);
      const records = await this.readRecords(this.topics.checkpoints, from, high, Number.POSITIVE_INFINITY);
      const latest = records[records.length - 1];
      if (latest || from <= low) return latest;
    }
  }

  async read(fromPosition: number, maxEvents: number): Promise<LoggedEvent[]> {
    const { low, high: end } = await this.offsets(this.topics.events);
    refuseBelowHead(this.topics.events, fromPosition, low);
    if (maxEvents <= 0 || fromPosition >= end) return [];
    const held = this.takeResumable();
    const resumed = held?.next === fromPosition ? held : undefined;
    if (held && !resumed) await held.reader.close();
    let records: KafkaRecord[];
    let kept: Omit<ResumableReader, 'next' | 'idle'>;
    try {
      [records, kept] = await this.readFrom(resumed, fromPosition, end, maxEvents);
    } catch (error) {
      // a held reader may have failed while it waited (a broker restart): a fresh one gets a second chance
      if (!resumed) throw error;
      await resumed.reader.close();
      [records, kept] = await this.readFrom(undefined, fromPosition, end, maxEvents);
    }
    const next = records.length > 0 ? records[records.length - 1].offset + 1 : fromPosition;
    this.keepResumable({ ...kept, next });
    return records.map(toLoggedEvent);
  }

  async head(): Promise<number> {
    return (await this.offsets(this.topics.events)).low;
  }

  /** The last stable offset: kafkajs lists offsets read-committed, so an open transaction is not counted. */
  async tail(): Promise<number> {
    return (await this.offsets(this.topics.events)).high;
  }

  subscribe(fromPosition: number, onBatch: OnBatch, opts?: SubscribeOptions): Subscription {
    const bufferLimit = 2 * (opts?.maxBatch ?? DEFAULT_MAX_BATCH);
    return this.subscriptions.track(
      runSubscription(
        async (from, wake) => {
          refuseBelowHead(this.topics.events, from, (await this.offsets(this.topics.events)).low);
          const reader = await this.openReader(this.topics.events, from, bufferLimit, wake);
          return {
            pull: async (position, max) => reader.takeWholeAppends(position, max).map(toLoggedEvent),
            close: () => reader.close(),
          };
        },
        fromPosition,
        onBatch,
        opts,
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const closing = await Promise.allSettled([this.dropResumable(), this.subscriptions.stopAll(), this.appending]);
    const closed = await Promise.allSettled([this.producer.close(), this.admin.close()]);
    const failed = [...closing, ...closed].find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async appendInTransaction(events: EventEnvelope[], checkpoint: IndexerCheckpoint): Promise<void> {
    const producer = await this.producer.get();
    // a new producer registers its transactional id here
    const transaction = await producer.transaction();
    try {
      if (this.checkedProducer !== producer) {
        const latest = await this.latestCheckpointRecord();
        const seen = this.writer.expected;
        if (seen !== null && (latest?.offset ?? NO_CHECKPOINT) !== seen) {
          throw new EventLogWriteConflictError(this.topics.events);
        }
        this.checkedProducer = producer;
      }
      let lastEvent = NO_CHECKPOINT;
      for (const chunk of encodeInChunks(events, SEND_CHUNK)) {
        const [sent] = await transaction.send({
          topic: this.topics.events,
          acks: -1,
          compression: CompressionTypes.GZIP,
          messages: chunk.map((value) => ({ key: this.key, value })),
        });
        if (sent) lastEvent = Number(sent.baseOffset) + chunk.length - 1;
      }
      const [written] = await transaction.send({
        topic: this.topics.checkpoints,
        acks: -1,
        messages: [{ key: this.key, value: JSON.stringify(checkpoint) }],
      });
      await transaction.commit();
      if (written) {
        await this.untilReadable(lastEvent, Number(written.baseOffset));
        this.writer.appended(Number(written.baseOffset));
      }
    } catch (error) {
      // A fresh producer for the next append: a fenced one (another writer registered the id) would fail
      // every transaction, and its abort, a no-op when nothing was sent yet, succeeds; the fresh one
      // registers again and checks the checkpoint first.
      await transaction.abort().catch(() => undefined);
      this.producer.discard();
      throw error;
    }
  }

  /**
   * The commit answers before the coordinator has written the transaction's markers, and readers see its
   * records only after them. An append returns once its events and checkpoint are readable: a writer that
   * resumes right after reads this checkpoint, not the one before it (which, on the same checked producer,
   * it would append after again), and a read after the append sees it.
   */
  private async untilReadable(lastEvent: number, checkpoint: number): Promise<void> {
    const deadline = Date.now() + COMMIT_VISIBLE_TIMEOUT_MS;
    for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
      const [events, checkpoints] = await Promise.all([
        this.offsets(this.topics.events),
        this.offsets(this.topics.checkpoints),
      ]);
      if (events.high > lastEvent && checkpoints.high > checkpoint) return;
      if (Date.now() > deadline) {
        throw new Error(
          `the append committed to ${this.topics.events} did not become readable within ${COMMIT_VISIBLE_TIMEOUT_MS} ms`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /**
   * The topic's first and next offsets. Right after a topic is made (or its partition's leader moves) the
   * broker may answer "not the leader" or "leader not available" for a moment, which kafkajs's admin
   * passes on for offsets: a retriable answer is asked again, after the topic's metadata is refreshed.
   */
  private async offsets(topic: string): Promise<{ low: number; high: number }> {
    const admin = await this.admin.get();
    for (let attempt = 1; ; attempt++) {
      try {
        const [partition] = await admin.fetchTopicOffsets(topic);
        if (!partition) throw new Error(`topic ${topic} has no partition: call init()`);
        return { low: Number(partition.low), high: Number(partition.high) };
      } catch (error) {
        if ((error as { retriable?: unknown }).retriable !== true || attempt >= OFFSETS_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        await admin.fetchTopicMetadata({ topics: [topic] }).catch(() => undefined);
      }
    }
  }

  /** Committed records of [from, end), at most `max`, with a reader opened for this one call. */
  private async readRecords(topic: string, from: number, end: number, max: number): Promise<KafkaRecord[]> {
    if (max <= 0 || from >= end) return [];
    const wake = new WakeSignal();
    const reader = await this.openReader(topic, from, Math.min(max, 10_000), wake);
    try {
      return await this.collect(reader, wake, topic, from, end, max);
    } finally {
      await reader.close();
    }
  }

  /** Takes a reader's committed records of [from, end), at most `max`, waiting for them to arrive. */
  private async collect(
    reader: KafkaPartitionReader,
    wake: WakeSignal,
    topic: string,
    from: number,
    end: number,
    max: number,
  ): Promise<KafkaRecord[]> {
    const deadline = Date.now() + READ_TIMEOUT_MS;
    const records: KafkaRecord[] = [];
    while (records.length < max) {
      // one at a time: spread arguments live on the stack, and a held reader hands over up to 100,000
      for (const record of reader.take(from, max - records.length)) records.push(record);
      if (records.length >= max || reader.position >= end) break;
      if (Date.now() > deadline)
        throw new Error(`reading ${topic} from ${from}: no progress within ${READ_TIMEOUT_MS} ms`);
      await wake.wait(deadline - Date.now());
    }
    return records;
  }

  /** Reads with the held reader, or a new one (closed again if the read fails). */
  private async readFrom(
    resumed: ResumableReader | undefined,
    from: number,
    end: number,
    max: number,
  ): Promise<[KafkaRecord[], Omit<ResumableReader, 'next' | 'idle'>]> {
    const wake = resumed?.wake ?? new WakeSignal();
    const reader = resumed?.reader ?? (await this.openReader(this.topics.events, from, resumableBuffer(max), wake));
    try {
      return [await this.collect(reader, wake, this.topics.events, from, end, max), { reader, wake }];
    } catch (error) {
      if (!resumed) await reader.close();
      throw error;
    }
  }

  /** The held reader, now the caller's: a concurrent read opens its own. */
  private takeResumable(): ResumableReader | undefined {
    const held = this.resumable;
    this.resumable = undefined;
    if (held) clearTimeout(held.idle);
    return held;
  }

  /** Holds a reader for the next read; one already held (a concurrent read's) is closed, as is this one once the log is closed. */
  private keepResumable(kept: Omit<ResumableReader, 'idle'>): void {
    const previous = this.takeResumable();
    if (previous) void previous.reader.close().catch(() => undefined);
    if (this.closed) {
      void kept.reader.close().catch(() => undefined);
      return;
    }
    const entry: ResumableReader = {
      ...kept,
      idle: setTimeout(() => {
        if (this.resumable === entry) void this.dropResumable().catch(() => undefined);
      }, RESUMABLE_IDLE_MS),
    };
    entry.idle.unref();
    this.resumable = entry;
  }

  private async dropResumable(): Promise<void> {
    await this.takeResumable()?.reader.close();
  }

  private openReader(topic: string, fromOffset: number, bufferLimit: number, wake: WakeSignal) {
    return KafkaPartitionReader.open({
      kafka: this.kafka,
      clientId: this.clientId,
      topic,
      fromOffset,
      bufferLimit,
      onProgress: () => wake.notify(),
    });
  }
}

function toLoggedEvent(record: KafkaRecord): LoggedEvent {
  return { position: record.offset, event: JSON.parse(record.value.toString('utf8')) as EventEnvelope };
}

/**
 * Records below the topic's first offset were deleted (retention set on the topic, against the log's
 * own settings): a read from there would silently start at the first one left (kafkajs resets an out
 * of range offset), and a fold would miss what was deleted.
 */
function refuseBelowHead(topic: string, from: number, head: number): void {
  if (from < head) {
    throw new Error(
      `topic ${topic} starts at offset ${head}: the events from ${from} were deleted (retention), and a fold ` +
        'without them would be wrong; keep the topic forever (retention.ms=-1) and index into a new one',
    );
  }
}
