import type { Logger } from 'pino';

export interface ProgressSample {
  /** Units done so far (e.g. blocks) and the total to reach. */
  done: number;
  total: number;
  /** Items moved since the last sample (e.g. events appended). */
  items: number;
}

/**
 * Progress of long work: a one-line bar with rates and ETA on a terminal, a log line every few seconds
 * otherwise. Rates are averaged over the whole run so the ETA does not jump around: from `startingAt`'s
 * moment and position when the caller knows where the work began, else from the first sample (whose own
 * units and items took time before it that the reporter never saw).
 */
export class ProgressReporter {
  private started = Date.now();
  private firstDone: number | undefined;
  private items = 0;
  private lastPrint = 0;

  constructor(
    private readonly label: string,
    private readonly unit: string,
    private readonly itemUnit: string,
    private readonly logger: Logger,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly intervalMs = 5_000,
  ) {}

  /** The work begins now, at `done` units. */
  startingAt(done: number): this {
    this.started = Date.now();
    this.firstDone = done;
    return this;
  }

  update(sample: ProgressSample): void {
    if (this.firstDone === undefined) this.startingAt(sample.done);
    else this.items += sample.items;
    const firstDone = this.firstDone ?? sample.done;
    const now = Date.now();
    const tty = this.stream.isTTY === true;
    const finished = sample.done >= sample.total;
    if (now - this.lastPrint < (tty ? 200 : this.intervalMs) && !finished) return;
    this.lastPrint = now;
    const seconds = Math.max(0.001, (now - this.started) / 1000);
    const unitRate = (sample.done - firstDone) / seconds;
    const itemRate = this.items / seconds;
    const eta = unitRate > 0 ? Math.max(0, sample.total - sample.done) / unitRate : Infinity;
    const pct = sample.total > 0 ? Math.min(100, (100 * sample.done) / sample.total) : 100;
    if (tty) {
      const width = 30;
      const filled = Math.round((pct / 100) * width);
      this.stream.write(
        `\r${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct.toFixed(1)}% ` +
          `${sample.done}/${sample.total} ${this.unit} · ${unitRate.toFixed(0)} ${this.unit}/s · ` +
          `${itemRate.toFixed(0)} ${this.itemUnit}/s · ETA ${formatEta(eta)}   ${finished ? '\n' : ''}`,
      );
    } else {
      this.logger.info(
        {
          done: sample.done,
          total: sample.total,
          percent: Number(pct.toFixed(1)),
          unitsPerSecond: Math.round(unitRate),
          itemsPerSecond: Math.round(itemRate),
          etaSeconds: Number.isFinite(eta) ? Math.round(eta) : null,
        },
        `${this.label}: ${this.unit} and ${this.itemUnit} progress`,
      );
    }
  }
}

export function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
