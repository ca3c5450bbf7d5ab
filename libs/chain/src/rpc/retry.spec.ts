import { AbortedError, retrying } from './retry';
import { HttpRequestError } from 'viem';
import { classifyRpcError, RepeatedRangeRefusalError, retryAfterMs } from './rpc-errors';

describe('retrying', () => {
  it('retries transient failures until the call succeeds, reporting each', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const value = await retrying(
      async () => {
        if (++calls < 3) throw new Error('socket hang up');
        return 'ok';
      },
      { what: 'test', baseDelayMs: 1, onError: (e) => errors.push(e) },
    );
    expect(value).toBe('ok');
    expect(calls).toBe(3);
    expect(errors).toHaveLength(2);
  });

  it("waits as long as a throttling provider's Retry-After asks, beyond its own backoff", async () => {
    const throttled = (retryAfter: string) =>
      new HttpRequestError({ url: 'http://node', status: 429, headers: new Headers({ 'retry-after': retryAfter }) });
    let calls = 0;
    const started = Date.now();
    const delays: number[] = [];
    await retrying(
      async () => {
        if (++calls === 1) throw throttled('1');
        return 'ok';
      },
      { what: 'test', baseDelayMs: 1, logger: { warn: (o) => void delays.push((o as { delayMs: number }).delayMs) } },
    );
    expect(delays).toEqual([1_000]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    // an HTTP date, and a minute at most
    expect(retryAfterMs(throttled(new Date(10_000).toUTCString()), 4_000)).toBe(6_000);
    expect(retryAfterMs(throttled('3600'))).toBe(60_000);
    expect(retryAfterMs(new Error('rate limited'))).toBeUndefined();
  });

  const refusedAsTooLarge = () => Object.assign(new Error('query returned more than 10000 results'), { code: -32005 });

  it('does not retry range errors of a range call: its caller splits', async () => {
    let calls = 0;
    await expect(
      retrying(
        async () => {
          calls++;
          throw refusedAsTooLarge();
        },
        { what: 'test', baseDelayMs: 1, splitsRanges: true },
      ),
    ).rejects.toThrow(/more than 10000/);
    expect(calls).toBe(1);
  });

  it('hands a range call the node refuses three times in a row, however it words it, to its caller to split', async () => {
    let calls = 0;
    const refused = retrying(
      async () => {
        calls++;
        // lost connections do not count: the node did not answer
        if (calls <= 2) throw new Error('socket hang up');
        throw Object.assign(new Error('we do not serve that many blocks, sorry'), { code: -32099 });
      },
      { what: 'eth_getLogs 1-500', baseDelayMs: 1, splitsRanges: true, signal: AbortSignal.timeout(2_000) },
    );
    await expect(refused).rejects.toBeInstanceOf(RepeatedRangeRefusalError);
    expect(calls).toBe(5);
    expect(classifyRpcError(await refused.catch((e: unknown) => e)).kind).toBe('range-too-large');
  });

  it('retries the same refusal of any other call: only a range can be split', async () => {
    let calls = 0;
    const value = await retrying(
      async () => {
        if (++calls < 6) throw Object.assign(new Error('we are busy, sorry'), { code: -32099 });
        return 1;
      },
      { what: 'eth_getBlockByNumber', baseDelayMs: 1 },
    );
    expect([value, calls]).toEqual([1, 6]);
  });

  it('waits out a "limit exceeded" answer to any other call (a provider throttling with -32005)', async () => {
    let calls = 0;
    const value = await retrying(
      async () => {
        if (++calls < 3) throw Object.assign(new Error('limit exceeded'), { code: -32005 });
        return 7;
      },
      { what: 'eth_blockNumber', baseDelayMs: 1 },
    );
    expect([value, calls]).toEqual([7, 3]);
  });

  it('abandons a hung call as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const hung = retrying(() => new Promise<never>(() => undefined), { what: 'hung', signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(hung).rejects.toBeInstanceOf(AbortedError);
  });
});
