/**
 * reliability/results.json (a flat object of named numbers) and the reliability block of
 * bench/RESULTS.md (machine, date, seed, each suite's table and verdict).
 */
import { join } from 'node:path';
import { blockMarkers, writeFigures, writeMarkedBlock, type MachineInfo } from '@lottery/testing';
import type { SuiteOutcome } from './suite';

export interface ReliabilityReport {
  machine: MachineInfo;
  commit: string;
  mode: string;
  seed: number;
  seconds: number;
  outcomes: { name: string; seconds: number; outcome: SuiteOutcome }[];
}

const BLOCK = 'reliability:main';

function renderMarkdown(report: ReliabilityReport): string {
  const m = report.machine;
  const { begin, end } = blockMarkers(BLOCK);
  const lines = [
    begin,
    '## Reliability suites (`npm run reliability`)',
    '',
    '`npm run reliability` (reliability/main.ts) runs each suite against real services and exits non-zero',
    'on any loss or divergence; figures below are from the last run, the same numbers are in',
    '`reliability/results.json`.',
    '',
    '| | |',
    '|---|---|',
    `| date | ${m.date} |`,
    `| mode | ${report.mode} |`,
    `| seed | ${report.seed} (repeat with \`--seed ${report.seed}\`) |`,
    `| commit (at the start) | ${report.commit} |`,
    `| machine | ${m.cpuModel}, ${m.cores} cores, ${m.ramGb} GB, Node ${m.node}, ${m.os} |`,
    `| duration | ${Math.round(report.seconds)} s |`,
    '',
  ];
  for (const { name, seconds, outcome } of report.outcomes) {
    const verdict = outcome.failures.length === 0 ? 'passed' : `**FAILED** (${outcome.failures.length})`;
    lines.push(`### ${outcome.title}`, '', `\`--only ${name}\` · ${verdict} · ${Math.round(seconds)} s`, '');
    if (outcome.intro) lines.push(outcome.intro, '');
    lines.push('| figure | value | note |', '|---|---:|---|');
    for (const row of outcome.rows) lines.push(`| ${row.figure} | ${row.value} | ${row.note ?? ''} |`);
    lines.push('');
    for (const failure of outcome.failures.slice(0, 20)) lines.push(`- failure: ${failure}`);
    if (outcome.failures.length > 0) lines.push('');
  }
  lines.push(end);
  return lines.join('\n');
}

export function writeReliabilityReport(report: ReliabilityReport, outDir: string, benchDir: string): void {
  const figures: Record<string, number> = { seed: report.seed };
  for (const { outcome } of report.outcomes) Object.assign(figures, outcome.figures);
  figures.suites_failed = report.outcomes.filter((o) => o.outcome.failures.length > 0).length;
  writeFigures(join(outDir, 'results.json'), figures);
  writeMarkedBlock(join(benchDir, 'RESULTS.md'), BLOCK, renderMarkdown(report), 'last');
}
