/**
 * "Something may have changed": set by whoever learns of new events (a NOTIFY, a fetched Kafka batch,
 * a stop request), consumed by the one loop waiting on it. A notification that arrives while nobody
 * waits is kept, so the waiter never misses one between checking and waiting.
 */
export class WakeSignal {
  private pending = false;
  private readonly waiters = new Set<() => void>();

  notify(): void {
    this.pending = true;
    for (const wake of this.waiters) wake();
  }

  /** True at once if notified since the last wait, else true on the next notify or false after timeoutMs. */
  wait(timeoutMs: number): Promise<boolean> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const settle = (notified: boolean): void => {
        clearTimeout(timer);
        this.waiters.delete(onNotify);
        if (notified) this.pending = false;
        resolve(notified);
      };
      const onNotify = (): void => settle(true);
      const timer = setTimeout(() => settle(false), timeoutMs);
      this.waiters.add(onNotify);
    });
  }
}
