import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@lottery/pipeline-testing';
import pino from 'pino';
import { ProcessSupervisor } from '../src/embedded/process-supervisor';

describe('the process supervisor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'supervisor-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('restarts an app stopped from outside (exit 0) as a stop, and one that failed as an error', async () => {
    const lines: { level: number; msg: string; app: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const supervisor = new ProcessSupervisor(logger);
    try {
      const fixture = 'apps/ops/test/fixtures/exit-with.ts';
      supervisor.start('stopped', fixture, { EXIT_CODE: '0' }, join(dir, 'stopped.log'));
      supervisor.start('failing', fixture, { EXIT_CODE: '3' }, join(dir, 'failing.log'));
      await eventually(async () => lines.length >= 2, 'both exits told', 20_000);
      expect(lines.map(({ level, msg, app }) => [app, level, msg]).sort()).toEqual([
        ['failing', 50, 'app exited unexpectedly, restarting in 2s'],
        ['stopped', 30, 'app stopped, restarting in 2s'],
      ]);
    } finally {
      await supervisor.stopAll(1_000);
    }
  });
});
