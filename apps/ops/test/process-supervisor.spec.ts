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
    const lines: { level: number; msg: string; app: string; child: string }[] = [];
    const raw: string[] = [];
    // as ops's own logger: every line carries app "ops"
    const logger = pino(
      { level: 'info', base: { app: 'ops' } },
      {
        write: (line: string) => {
          raw.push(line);
          lines.push(JSON.parse(line));
        },
      },
    );
    const supervisor = new ProcessSupervisor(logger);
    try {
      const fixture = 'apps/ops/test/fixtures/exit-with.ts';
      supervisor.start('stopped', fixture, { EXIT_CODE: '0' }, join(dir, 'stopped.log'));
      supervisor.start('failing', fixture, { EXIT_CODE: '3' }, join(dir, 'failing.log'));
      await eventually(async () => lines.length >= 2, 'both exits told', 20_000);
      expect(lines.map(({ level, msg, child }) => [child, level, msg]).sort()).toEqual([
        ['failing', 50, 'app exited unexpectedly, restarting in 2s'],
        ['stopped', 30, 'app stopped, restarting in 2s'],
      ]);
      // one "app" key a line (a second one, the child's name, made lines strict parsers refuse)
      expect(raw.map((line) => line.split('"app":').length - 1)).toEqual([1, 1]);
      expect(lines.map((line) => line.app)).toEqual(['ops', 'ops']);
    } finally {
      await supervisor.stopAll(1_000);
    }
  });

  it('gives up on an app failing right after each start, never on one stopped from outside each time', async () => {
    const messages: { child: string; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => messages.push(JSON.parse(line)) });
    const supervisor = new ProcessSupervisor(logger);
    const fixture = 'apps/ops/test/fixtures/exit-with.ts';
    const exitsOf = (child: string) => messages.filter((m) => m.child === child).length;
    try {
      // five reindexes in a row stop the indexer five times (exit 0) within seconds of its start
      supervisor.start('stopped', fixture, { EXIT_CODE: '0' }, join(dir, 'stopped-often.log'));
      supervisor.start('failing', fixture, { EXIT_CODE: '3' }, join(dir, 'failing-often.log'));
      await expect(supervisor.failed).rejects.toThrow(/^the failing exited 5 times in a row right after starting/);
      await eventually(async () => exitsOf('stopped') >= 6, 'the stopped app restarted a sixth time', 30_000);
      expect(messages.filter((m) => m.child === 'stopped').map((m) => m.msg)).not.toContain(
        'app keeps exiting at start; not restarted',
      );
    } finally {
      await supervisor.stopAll(1_000);
    }
  });
});
