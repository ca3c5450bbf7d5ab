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

  it('does not retry range errors: the caller must split', async () => {
    let calls = 0;
    await expect(
      retrying(
        async () => {
          calls++;
          throw Object.assign(new Error('query returned more than 10000 results'), { code: -32005 });
        },
        { what: 'test', baseDelayMs: 1 },
      ),
    ).rejects.toThrow(/more than 10000/);
    expect(calls).toBe(1);
  });

  it('abandons a hung call as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const hung = retrying(() => new Promise<never>(() => undefined), { what: 'hung', signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(hung).rejects.toBeInstanceOf(AbortedError);
  });
});
