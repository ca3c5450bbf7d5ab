/**
 * bench/results.json (a flat object of named numbers, as issue 9 asks) and bench/RESULTS.md (the machine,
 * the date, every figure, the ratios and the notes on goals).
 */
import { join } from 'node:path';
import { blockMarkers, writeFigures, writeMarkedBlock, type MachineInfo } from '@lottery/testing';
import { isApiFigure } from '../api/report';

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
    `The machine may be shared with other work (the load averages above say how busy it was; above ${m.cores} means`,
    'runnable work waited for a core). Treat the figures as lower bounds, and compare ratios measured in the',
    'same run rather than absolute numbers across runs.',
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

const { begin: BEGIN, end: END } = blockMarkers('bench:main');

export function writeReport(report: Report, outDir: string): { markdown: string; json: string } {
  const markdown = join(outDir, 'RESULTS.md');
  const json = join(outDir, 'results.json');
  writeMarkedBlock(markdown, 'bench:main', renderMarkdown(report), 'first');
  // bench:api (the last stage, a process of its own) writes the api_ figures of the same file
  writeFigures(json, report.figures, (key) => !isApiFigure(key));
  return { markdown, json };
}
