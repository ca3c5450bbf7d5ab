import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@lottery/telemetry';

const repoRoot = resolve(__dirname, '../../../..');

/**
 * What `script` (given a fresh cluster folder and a free port) printed, run in a process of its own: the
 * module is ESM (jest cannot load it), and a signal must not reach jest. The process must exit cleanly.
 */
async function printedBy(script: (dir: string, port: number) => string): Promise<unknown> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'lottery-ops-embedded-'));
  chmodSync(dir, 0o755); // as root the server runs as "postgres", which must enter it
  try {
    const run = spawnSync(process.execPath, ['-r', './tools/register.js', '-e', script(dir, port)], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: run.status, signal: run.signal, stderr: run.stderr }).toEqual({
      status: 0,
      signal: null,
      stderr: '',
    });
    return JSON.parse(run.stdout.trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('startEmbeddedPostgres', () => {
  it('leaves a Ctrl-C to its caller: the cluster keeps serving and the process keeps running', async () => {
    const printed = await printedBy(
      (dir, port) => `
        const { startEmbeddedPostgres } = require('./apps/ops/src/embedded/embedded-postgres.ts');
        const { Client } = require('pg');
        (async () => {
          const db = await startEmbeddedPostgres(${JSON.stringify(dir)}, ${port}, 'a test password');
          let signalled = false;
          process.once('SIGINT', () => { signalled = true; });
          process.kill(process.pid, 'SIGINT');
          await new Promise((r) => setTimeout(r, 1500));
          const client = new Client({ connectionString: db.url });
          await client.connect();
          const { rows } = await client.query('select 1 + 1 as two');
          await client.end();
          await db.stop();
          console.log(JSON.stringify({ signalled, two: rows[0].two }));
        })().catch((e) => { console.error(e); process.exit(1); });`,
    );
    expect(printed).toEqual({ signalled: true, two: 2 });
  });

  it('stops at once a cluster whose server a Ctrl-C already ended (the terminal signals Postgres too)', async () => {
    const printed = await printedBy(
      (dir, port) => `
        const { readFileSync } = require('node:fs');
        const { startEmbeddedPostgres } = require('./apps/ops/src/embedded/embedded-postgres.ts');
        (async () => {
          const db = await startEmbeddedPostgres(${JSON.stringify(dir)}, ${port}, 'a test password');
          // the postmaster's pid, as Postgres records it: a SIGINT is its fast shutdown
          const postmaster = Number(readFileSync(${JSON.stringify(join(dir, 'postgres', 'postmaster.pid'))}, 'utf8').split('\\n')[0]);
          process.kill(postmaster, 'SIGINT');
          const alive = () => { try { process.kill(postmaster, 0); return true; } catch { return false; } };
          while (alive()) await new Promise((r) => setTimeout(r, 50));
          await new Promise((r) => setTimeout(r, 500));
          const stopping = Date.now();
          await db.stop();
          console.log(JSON.stringify({ stoppedInMs: Date.now() - stopping }));
        })().catch((e) => { console.error(e); process.exit(1); });`,
    );
    expect((printed as { stoppedInMs: number }).stoppedInMs).toBeLessThan(5_000);
  });
});
