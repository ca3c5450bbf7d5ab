import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appNodeArgs } from '@lottery/telemetry';
import { isAlive } from '../../src/instance-processes';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..', '..', '..');

describe('ops start whose output is no longer read', () => {
  it('stops cleanly, its chain with it, when the reader of its JSON lines goes away (`| head -1`)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lottery-closed-output-'));
    try {
      // a chain that keeps telling: a purchase every second
      const args = ['start', '--chain-only', '--json', '--rounds', '0', '--purchase-every', '1', '--seed', 'pipe'];
      const child = spawn(process.execPath, [...appNodeArgs('apps/ops/src/main.ts'), ...args], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, RPC_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
      // the first line, as `head -1` reads it, then the pipe is closed
      const first = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          if (out.includes('"event":"ready"')) resolve(out);
        });
      });
      const anvilPid = (JSON.parse(readFileSync(join(dataDir, 'instance.json'), 'utf8')) as { anvilPid?: number })
        .anvilPid;
      expect(first).toMatch(/"event":"ready"/);
      expect(anvilPid).toEqual(expect.any(Number));
      child.stdout.destroy();
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 60_000))]);
      if (code === 'still running') child.kill('SIGKILL');
      expect([code, stderr]).toEqual([0, expect.not.stringMatching(/EPIPE|Unhandled/)]);
      expect(isAlive(anvilPid as number)).toBe(false);
      expect(JSON.parse(readFileSync(join(dataDir, 'instance.json'), 'utf8'))).toMatchObject({ pids: {} });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
