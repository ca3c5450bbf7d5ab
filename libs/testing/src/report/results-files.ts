/**
 * The files benchmark and reliability runs leave behind: a flat JSON object of named numbers, and
 * their own marked block of a shared Markdown page (bench/RESULTS.md holds the pipeline, API and
 * reliability blocks; a run replaces only its block and keeps the rest of the page).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const fmt = (n: number, digits = 0): string =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';

export const pct = (share: number, digits = 1): string =>
  Number.isFinite(share) ? `${(share * 100).toFixed(digits)} %` : 'n/a';

export const blockMarkers = (name: string) => ({ begin: `<!-- ${name} -->`, end: `<!-- /${name} -->` });

/**
 * Replaces the block `<!-- name -->…<!-- /name -->` of the page at `path`; a block not there yet goes
 * after the page's title when `placement` is 'first', at the end otherwise. `block` must carry its
 * own markers (see blockMarkers).
 */
export function writeMarkedBlock(path: string, name: string, block: string, placement: 'first' | 'last'): void {
  const { begin, end } = blockMarkers(name);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const start = current.indexOf(begin);
  const stop = current.indexOf(end);
  let next: string;
  if (start >= 0 && stop > start) next = current.slice(0, start) + block + current.slice(stop + end.length);
  else if (current.trim() === '') next = `# Benchmarks\n\n${block}\n`;
  else if (placement === 'last') next = `${current.replace(/\n*$/, '\n\n')}${block}\n`;
  else {
    const title = /^# .*\n+/.exec(current);
    const at = title ? title[0].length : 0;
    next = `${current.slice(0, at)}${block}\n\n${current.slice(at)}`;
  }
  writeFileSync(path, next);
}

/**
 * Figures rounded to 3 decimals; a figure that is not a finite number is written as null. Several runs
 * may share one file: a run owns the keys `owns` accepts (all by default) and replaces only those,
 * keeping the other runs' figures (`npm run bench` and `bench:api` both write bench/results.json).
 */
export function writeFigures(
  path: string,
  figures: Record<string, number>,
  owns: (key: string) => boolean = () => true,
): void {
  const current: Record<string, number | null> = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  const kept = Object.entries(current).filter(([k]) => !owns(k) && !(k in figures));
  const rounded = Object.entries(figures).map(([k, v]) => [k, Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null]);
  writeFileSync(path, `${JSON.stringify(Object.fromEntries([...kept, ...rounded]), null, 2)}\n`);
}
