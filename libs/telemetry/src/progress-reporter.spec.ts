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

  it('formats ETAs', () => {
    expect(formatEta(Infinity)).toBe('--');
    expect(formatEta(42)).toBe('42s');
    expect(formatEta(125)).toBe('2m05s');
    expect(formatEta(7322)).toBe('2h02m');
  });
});
