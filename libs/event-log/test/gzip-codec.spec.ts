import { CompressionCodecs, CompressionTypes } from 'kafkajs';
import { constants, deflateSync, gzipSync } from 'node:zlib';
import { inflatedSizeHint, sizedGzipCodec, useSizedGzipCodec } from '../src/kafka/gzip-codec';

const text = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => `{"position":${i}}`).join(''));

describe('sized gzip codec', () => {
  it('sizes the output from the gzip trailer, never below zlib’s default chunk nor above 64 MiB', () => {
    const body = text(10_000);
    expect(inflatedSizeHint(gzipSync(body))).toBe(body.length + 1);
    expect(inflatedSizeHint(gzipSync(text(10)))).toBe(constants.Z_DEFAULT_CHUNK);
    const claimsFourGiB = Buffer.concat([gzipSync(body).subarray(0, -4), Buffer.from([0xff, 0xff, 0xff, 0xff])]);
    expect(inflatedSizeHint(claimsFourGiB)).toBe(64 * 1024 * 1024);
  });

  it('leaves input that is not gzip to zlib’s default chunks', () => {
    expect(inflatedSizeHint(deflateSync(text(1_000)))).toBe(constants.Z_DEFAULT_CHUNK);
    expect(inflatedSizeHint(Buffer.from([0x1f]))).toBe(constants.Z_DEFAULT_CHUNK);
  });

  it('is the codec kafkajs uses for gzip once registered, and inflates what gzip wrote, several members too', async () => {
    useSizedGzipCodec();
    const codec = CompressionCodecs[CompressionTypes.GZIP]();
    expect(codec).toBe(sizedGzipCodec);
    const first = text(20_000);
    const second = text(3);
    const compressed: Buffer = await codec.compress({ buffer: first });
    // compared as text: toEqual walks a Buffer byte by byte, seconds for these sizes
    expect(String(await codec.decompress(compressed))).toBe(String(first));
    // the trailer states only the last member's size: the hint is too small and zlib grows the output
    expect(String(await codec.decompress(Buffer.concat([compressed, gzipSync(second)])))).toBe(`${first}${second}`);
    expect(String(await codec.decompress(deflateSync(second)))).toBe(String(second));
  });
});
