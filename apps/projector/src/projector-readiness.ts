/**
 * The projector's readiness. It turns ready the first time the read models are within
 * `maxLagEvents` of the log's tail (0 = fully caught up), so "ready" after a start means the history is
 * folded. Afterwards a single measurement over the limit (a burst of new events) does not flap it:
 * only `graceMeasurements` in a row do. A failure (poison event, broken database) is never ready, nor is
 * a projector waiting for a replay of read models folded under other rules.
 */
export class ProjectorReadiness {
  private lagEvents: number | null = null;
  private caughtUp = false;
  private overLimit = 0;
  private failure: string | null = null;
  private blocked: string | null = null;

  constructor(
    private readonly maxLagEvents: number,
    private readonly graceMeasurements = 3,
  ) {}

  observeLag(lagEvents: number): void {
    this.lagEvents = lagEvents;
    if (lagEvents <= this.maxLagEvents) {
      this.caughtUp = true;
      this.overLimit = 0;
    } else {
      this.overLimit += 1;
    }
  }

  fail(reason: string): void {
    this.failure = reason;
  }

  /** Why the projector waits instead of folding (read models of other fold rules); null once it folds. */
  blockedBy(reason: string | null): void {
    this.blocked = reason;
  }

  /** Null when ready, else why not. */
  notReadyReason(): string | null {
    if (this.failure) return this.failure;
    if (this.blocked) return this.blocked;
    if (this.lagEvents === null) return 'measuring the lag behind the event log';
    if (!this.caughtUp || this.overLimit >= this.graceMeasurements) {
      return `catching up: ${this.lagEvents} events behind the event log`;
    }
    return null;
  }
}
