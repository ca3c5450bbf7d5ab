import { CompressionCodecs, CompressionTypes } from 'kafkajs';
import { promisify } from 'node:util';
import { constants, gzip, unzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const unzipAsync = promisify(unzip);

const GZIP_MAGIC = 0x8b1f;
/** A trailer claiming more than this is not trusted as a size: zlib then grows its output as it goes. */
const MAX_SIZED_OUTPUT = 64 * 1024 * 1024;

/**
 * The output size a gzip member's trailer states (ISIZE, the size modulo 2^32), for one output buffer.
 * zlib's default is 16 KiB chunks, each a round trip from the thread pool and a fresh allocation,
 * then a concatenation: for a replay's record batches that was a tenth of the reading thread's time
 * (bench/PROFILE.md, sixteenth round). Only a hint: a batch of several members, or a lying trailer,
 * still inflates whole, in more chunks (at worst zlib's default ones).
 */
export function inflatedSizeHint(compressed: Buffer): number {
  if (compressed.length < 18 || compressed.readUInt16LE(0) !== GZIP_MAGIC) return constants.Z_DEFAULT_CHUNK;
  const stated = compressed.readUInt32LE(compressed.length - 4);
  // a byte to spare: zlib allocates the next chunk as soon as one is full, before it knows the stream ended;
  // never below the default: a trailer stating too little (another member's size) must not shrink the chunks
  return Math.min(Math.max(stated + 1, constants.Z_DEFAULT_CHUNK), MAX_SIZED_OUTPUT);
}

/** kafkajs's gzip codec, with the output sized up front when it inflates. */
export const sizedGzipCodec = {
  compress: (encoder: { buffer: Buffer }) => gzipAsync(encoder.buffer),
  decompress: (compressed: Buffer) => unzipAsync(compressed, { chunkSize: inflatedSizeHint(compressed) }),
};

/**
 * kafkajs looks codecs up in one process-wide table; the record format is unchanged (gzip either
 * way), so every kafkajs client in the process reads and writes as before, only with fewer buffers.
 */
export function useSizedGzipCodec(): void {
  CompressionCodecs[CompressionTypes.GZIP] = () => sizedGzipCodec;
}
