/**
 * bench/results.json (a flat object of named numbers, as issue 9 asks) and bench/RESULTS.md (the machine,
 * the date, every figure, the ratios and the notes on goals).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MachineInfo } from './machine';

export interface Row {
  figure: string;
  value: string;
  note?: string;
}

export interface Section {
  title: string;
  intro?: string;
  rows: Row[];
}

export interface Report {
  machine: MachineInfo;
  commit: string;
  mode: string;
  loadAtEnd: number;
  /** stage → mean 1-minute load average while it ran */
  loadByStage: Record<string, number>;
  sections: Section[];
  notes: string[];
  figures: Record<string, number>;
}

export const fmt = (n: number, digits = 0): string =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';

export const pct = (share: number): string => (Number.isFinite(share) ? `${(share * 100).toFixed(1)} %` : 'n/a');

export function renderMarkdown(report: Report): string {
  const m = report.machine;
  const lines: string[] = [
    BEGIN,
    '## Pipeline benchmarks (`npm run bench`)',
    '',
    '`npm run bench` (bench/main.ts) measures, on one anvil history, the node and Postgres ceilings and this',
    'system against them: see the issue-9 performance section. Figures below are from the last run; the same',
    'numbers are in `bench/results.json`.',
    '',
    '### Machine and run',
    '',
    '| | |',
    '|---|---|',
    `| date | ${m.date} |`,
    `| mode | ${report.mode} |`,
    `| commit (at the start) | ${report.commit} |`,
    `| CPU | ${m.cpuModel}, ${m.cores} cores |`,
    `| RAM | ${m.ramGb} GB |`,
    `| Node | ${m.node} |`,
    `| Postgres | ${m.postgres} (local server, default settings) |`,
    `| OS | ${m.os} |`,
    `| load average (1 min) | ${m.loadAtStart} at start, ${report.loadAtEnd} at end |`,
    `| mean load average per stage | ${Object.entries(report.loadByStage)
      .map(([stage, v]) => `${stage} ${v}`)
      .join(', ')} |`,
    '',
    `The machine is shared: other engineers run test suites on it at the same time, so the processes here`,
    `compete for its ${m.cores} cores with unrelated work (a load average above ${m.cores} means runnable work was`,
    'waiting for a core). Treat the figures as lower bounds, and compare ratios measured in the same run rather',
    'than absolute numbers across runs.',
    '',
  ];
  for (const section of report.sections) {
    lines.push(`### ${section.title}`, '');
    if (section.intro) lines.push(section.intro, '');
    lines.push('| figure | value | note |', '|---|---:|---|');
    for (const row of section.rows) lines.push(`| ${row.figure} | ${row.value} | ${row.note ?? ''} |`);
    lines.push('');
  }
  if (report.notes.length > 0) {
    lines.push('### Notes', '');
    for (const note of report.notes) lines.push(`- ${note}`);
    lines.push('');
  }
  lines.push(END);
  return lines.join('\n');
}

const BEGIN = '<!-- bench:main -->';
const END = '<!-- /bench:main -->';

/**
 * RESULTS.md is shared with bench/api (its own `<!-- bench:api -->` block): only this script's block is
 * replaced, or put first when absent; everything else in the file is kept.
 */
function writeBlock(path: string, block: string): void {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  let next: string;
  if (start >= 0 && end > start) next = current.slice(0, start) + block + current.slice(end + END.length);
  else if (current.trim() === '') next = `# Benchmarks\n\n${block}\n`;
  else {
    // after the title line, before any other block
    const title = /^# .*\n+/.exec(current);
    const at = title ? title[0].length : 0;
    next = `${current.slice(0, at)}${block}\n\n${current.slice(at)}`;
  }
  writeFileSync(path, next);
}

export function writeReport(report: Report, outDir: string): { markdown: string; json: string } {
  const markdown = join(outDir, 'RESULTS.md');
  const json = join(outDir, 'results.json');
  writeBlock(markdown, renderMarkdown(report));
  const figures = Object.fromEntries(
    Object.entries(report.figures).map(([k, v]) => [k, Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null]),
  );
  writeFileSync(json, `${JSON.stringify(figures, null, 2)}\n`);
  return { markdown, json };
}
