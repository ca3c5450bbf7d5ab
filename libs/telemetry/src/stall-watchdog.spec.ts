import { StallWatchdog } from './stall-watchdog';

describe('StallWatchdog', () => {
  it('fires once when behind and idle past the timeout, and re-arms on progress', () => {
    let now = 0;
    let behind = true;
    const stalls: number[] = [];
    const w = new StallWatchdog(
      1_000,
      () => behind,
      (idle) => stalls.push(idle),
      () => now,
    );
    now = 999;
    w.check();
    expect(stalls).toEqual([]);
    now = 1_000;
    w.check();
    w.check();
    expect(stalls).toEqual([1_000]);
    expect(w.isStalled()).toBe(true);
    w.progress();
    expect(w.isStalled()).toBe(false);
    now = 5_000;
    behind = false;
    w.check();
    expect(stalls).toHaveLength(1);
    behind = true;
    w.check();
    expect(stalls).toHaveLength(2);
  });
});
