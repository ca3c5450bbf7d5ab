import pino from 'pino';
import { formatEta, ProgressReporter } from './progress-reporter';

describe('ProgressReporter', () => {
  it('draws a bar with rate and ETA on a terminal', () => {
    const out: string[] = [];
    const stream = { isTTY: true, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream;
    const r = new ProgressReporter('backfill', 'blocks', 'events', pino({ level: 'silent' }), stream);
    r.update({ done: 100, total: 100, items: 500 });
    expect(out.join('')).toMatch(/backfill \[#{30}\] 100\.0% 100\/100 blocks .* events\/s · ETA/);
  });

  describe('rates and ETA', () => {
    beforeEach(() => jest.useFakeTimers({ now: 0 }));
    afterEach(() => jest.useRealTimers());

    /** Samples a second apart, 50,000 units each, out of 400,000; the rates and ETAs logged. */
    const logged = (reporter: (logger: pino.Logger) => ProgressReporter) => {
      const lines: { unitsPerSecond: number; itemsPerSecond: number; etaSeconds: number | null }[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
      const r = reporter(logger);
      for (let second = 1; second <= 3; second++) {
        jest.setSystemTime(second * 1000);
        r.update({ done: second * 50_000, total: 400_000, items: 50_000 });
      }
      return lines.map(({ unitsPerSecond, itemsPerSecond, etaSeconds }) => ({
        unitsPerSecond,
        itemsPerSecond,
        etaSeconds,
      }));
    };

    it('from where the work began, when the caller says', () => {
      const lines = logged((logger) =>
        new ProgressReporter(
          'replay',
          'positions',
          'events',
          logger,
          { isTTY: false } as NodeJS.WriteStream,
          0,
        ).startingAt(0),
      );
      expect(lines).toEqual([
        { unitsPerSecond: 50_000, itemsPerSecond: 50_000, etaSeconds: 7 },
        { unitsPerSecond: 50_000, itemsPerSecond: 50_000, etaSeconds: 6 },
        { unitsPerSecond: 50_000, itemsPerSecond: 50_000, etaSeconds: 5 },
      ]);
    });

    it('from the first sample otherwise, leaving out what came before it', () => {
      const lines = logged(
        (logger) =>
          new ProgressReporter('indexing', 'blocks', 'events', logger, { isTTY: false } as NodeJS.WriteStream, 0),
      );
      expect(lines).toEqual([
        { unitsPerSecond: 0, itemsPerSecond: 0, etaSeconds: null },
        { unitsPerSecond: 50_000, itemsPerSecond: 50_000, etaSeconds: 6 },
        { unitsPerSecond: 50_000, itemsPerSecond: 50_000, etaSeconds: 5 },
      ]);
    });
  });

  it('formats ETAs', () => {
    expect(formatEta(Infinity)).toBe('--');
    expect(formatEta(42)).toBe('42s');
    expect(formatEta(125)).toBe('2m05s');
    expect(formatEta(7322)).toBe('2h02m');
  });
});
