import { MemoryRateLimitStore } from './memory-rate-limit.store';

describe('MemoryRateLimitStore', () => {
  const limits = { perMinute: 3, perDay: 5 };
  const start = Date.UTC(2026, 0, 1, 12, 0, 10);

  it('allows up to the per-minute limit, then refuses without counting the refusal', async () => {
    let now = start;
    const store = new MemoryRateLimitStore(() => now);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await store.consume('ip:1', limits));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results[4].minute).toEqual({ limit: 3, remaining: 0, resetAtMs: Date.UTC(2026, 0, 1, 12, 1) });
    expect(results[4].day.remaining).toBe(2);

    now = Date.UTC(2026, 0, 1, 12, 1); // next minute: the minute bucket refills, the day keeps counting
    expect((await store.consume('ip:1', limits)).minute.remaining).toBe(2);
    await store.consume('ip:1', limits);
    const dayExhausted = await store.consume('ip:1', limits);
    expect(dayExhausted.allowed).toBe(false);
    expect(dayExhausted.day).toEqual({ limit: 5, remaining: 0, resetAtMs: Date.UTC(2026, 0, 2) });
  });

  it('keeps callers apart', async () => {
    const store = new MemoryRateLimitStore(() => start);
    for (let i = 0; i < 3; i++) await store.consume('ip:1', limits);
    expect((await store.consume('ip:2', limits)).allowed).toBe(true);
  });

  it('sweeps past days once there are many callers, at most once a minute', async () => {
    let now = start;
    const store = new MemoryRateLimitStore(() => now);
    const sweep = jest.spyOn(store as unknown as { sweep(day: number): void }, 'sweep');
    for (let i = 0; i <= 50_000; i++) await store.consume(`ip:${i}`, limits);
    for (let i = 0; i < 100; i++) await store.consume('ip:flood', limits);
    // past the threshold within one minute: one sweep, not one per request
    expect(sweep).toHaveBeenCalledTimes(1);

    now = start + 24 * 60 * 60 * 1000; // the next day: its first request sweeps yesterday's callers away
    await store.consume('ip:tomorrow', limits);
    expect(sweep).toHaveBeenCalledTimes(2);
    const counters = (store as unknown as { counters: Map<string, unknown> }).counters;
    expect([...counters.keys()]).toEqual(['ip:tomorrow']);
  });
});
