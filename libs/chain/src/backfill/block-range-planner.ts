/**
 * Chooses how many blocks one eth_getLogs call covers. The goal is a response of about `targetLogs`
 * logs: big enough to amortise the round trip, small enough to stay under provider limits and viem's
 * 10 MB response cap (a lottery log is ~1 KB of JSON). The span follows the observed log density,
 * grows at most `growth`× per success and halves on a "too large" failure, or drops at once to the
 * span the refused answer's size points at, or to the span that last fitted the density of a range with
 * logs: after a long empty stretch the span has grown large, and halving back down through a dense
 * region costs one refused (but fully built) response each.
 */
export interface RangePlannerOptions {
  initialSpan?: number;
  minSpan?: number;
  maxSpan?: number;
  targetLogs?: number;
  growth?: number;
}

/** What a refusal of a range as too large said (each part when it said it). */
export interface RangeRefusal {
  /** The provider's hint: a range it would take. */
  suggestedBlocks?: number;
  /** The span the refused answer's size points at, at the same density. */
  estimatedBlocks?: number;
  /** The provider's cap on the blocks of one call. */
  maxBlocks?: number;
  /** The provider's cap on the logs of one answer. */
  maxLogs?: number;
  /** The node did not answer in time (nothing said of the range, but its span is suspect). */
  timedOut?: boolean;
}

export class BlockRangePlanner {
  private span: number;
  private readonly minSpan: number;
  /** At most RangePlannerOptions.maxSpan, and at most the provider's cap once a refusal stated it. */
  private maxSpan: number;
  /** At most RangePlannerOptions.targetLogs, and half the provider's cap on an answer once a refusal stated it. */
  private targetLogs: number;
  private readonly growth: number;
  /** The span fitted to the last range that had logs: the density to expect after a refusal. */
  private denseSpan: number;
  /** The span of the last range that timed out in a sparse stretch. */
  private sparseTimedOut: number | null = null;

  constructor(options: RangePlannerOptions = {}) {
    this.minSpan = options.minSpan ?? 1;
    this.maxSpan = options.maxSpan ?? 100_000;
    this.targetLogs = options.targetLogs ?? 4_000;
    this.growth = options.growth ?? 2;
    this.span = this.clamp(options.initialSpan ?? 8);
    this.denseSpan = this.span;
  }

  nextSpan(): number {
    return this.span;
  }

  /** A range of `blocks` blocks returned `logs` logs. */
  recordSuccess(blocks: number, logs: number): void {
    const fitted = logs === 0 ? this.span * this.growth : Math.floor((blocks * this.targetLogs) / logs);
    if (logs > 0) this.denseSpan = this.clamp(fitted);
    // Growth is earned by the range that succeeded, not by the current span: with several ranges of
    // one span in flight, each success would otherwise compound it (4 successes: 16×) into a dense
    // stretch nobody has looked at yet.
    this.span = this.clamp(Math.min(fitted, Math.max(this.span, blocks * this.growth)));
  }

  /**
   * A range of `blocks` blocks was refused as too large (or timed out). A cap on a range's blocks the
   * refused range exceeds binds from now on (growing through an empty stretch would otherwise be refused
   * at every doubling); so does a cap on an answer's logs (half of it becomes the target: a span fitted
   * to the density would otherwise overshoot it again and again). A range wider than twice the density's
   * span that times out again, no wider than the last one that did, shows the node's limit on a range
   * (its cost grows with the blocks, not the logs): half of it binds. One timeout alone may be the node's
   * hiccup, and a cap would shrink every later empty stretch. Returns the span of the refused range's
   * first piece.
   */
  recordTooLarge(blocks: number, refusal: RangeRefusal = {}): number {
    const { suggestedBlocks, estimatedBlocks, maxLogs, timedOut } = refusal;
    let sparseTimeout: number | undefined;
    if (timedOut === true && blocks > 2 * this.denseSpan) {
      if (this.sparseTimedOut !== null && blocks <= this.sparseTimedOut) sparseTimeout = Math.floor(blocks / 2);
      this.sparseTimedOut = blocks;
    }
    const maxBlocks = refusal.maxBlocks ?? sparseTimeout;
    const cap = maxBlocks !== undefined && maxBlocks < blocks ? maxBlocks : Infinity;
    if (cap !== Infinity) this.maxSpan = Math.max(this.minSpan, Math.min(this.maxSpan, cap));
    if (maxLogs !== undefined && maxLogs / 2 < this.targetLogs) {
      const target = Math.max(1, Math.floor(maxLogs / 2));
      this.denseSpan = this.clamp((this.denseSpan * target) / this.targetLogs);
      this.targetLogs = target;
    }
    const next = Math.min(
      suggestedBlocks && suggestedBlocks < blocks
        ? suggestedBlocks
        : Math.min(Math.floor(blocks / 2), this.denseSpan, estimatedBlocks ?? Infinity),
      cap,
    );
    this.span = this.clamp(Math.min(this.span, next));
    return Math.max(this.minSpan, Math.min(next, blocks - 1));
  }

  private clamp(span: number): number {
    return Math.max(this.minSpan, Math.min(this.maxSpan, Math.floor(span)));
  }
}
