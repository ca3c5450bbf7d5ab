/**
 * Detects work that stopped moving while it should: `progress()` is called on every step; when the
 * source is ahead (`behind()` is true) and no step happened for `timeoutMs`, `onStall` fires once per
 * stall. A fetch hung on a half-open socket is the classic case: the indexer restarts its loop.
 */
export class StallWatchdog {
  private lastProgress = Date.now();
  private stalled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly behind: () => boolean,
    private readonly onStall: (idleMs: number) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.lastProgress = now();
  }

  start(checkEveryMs = Math.max(100, Math.floor(this.timeoutMs / 4))): void {
    this.timer = setInterval(() => this.check(), checkEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  progress(): void {
    this.lastProgress = this.now();
    this.stalled = false;
  }

  isStalled(): boolean {
    return this.stalled;
  }

  check(): void {
    const idle = this.now() - this.lastProgress;
    if (!this.stalled && idle >= this.timeoutMs && this.behind()) {
      this.stalled = true;
      this.onStall(idle);
    }
  }
}
