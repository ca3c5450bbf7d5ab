import { AbortedError, retrying } from './retry';

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
