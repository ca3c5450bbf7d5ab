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
});
