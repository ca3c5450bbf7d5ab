import type { EventEnvelope } from '@lottery/domain';

export interface ChunkLimits {
  maxEvents: number;
  /** Of the JSON text; counted in UTF-16 units, which equal bytes for the ASCII our envelopes are. */
  maxBytes: number;
}

/**
 * Serializes events to JSON lazily, one chunk at a time, so an append writes one chunk per statement or
 * Kafka request. Lazily on purpose: a failure in a late chunk surfaces after earlier chunks were
 * written, inside the append's transaction, which then has to roll them back (and the contract
 * tests prove it does).
 */
export function* encodeInChunks(events: readonly EventEnvelope[], limits: ChunkLimits): Generator<string[]> {
  let chunk: string[] = [];
  let bytes = 0;
  for (const event of events) {
    const json = JSON.stringify(event);
    if (chunk.length > 0 && (chunk.length >= limits.maxEvents || bytes + json.length > limits.maxBytes)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(json);
    bytes += json.length;
  }
  if (chunk.length > 0) yield chunk;
}
