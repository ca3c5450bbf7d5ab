import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually } from '@lottery/testing';
import { NpmProcess } from './npm-start-process';

jest.setTimeout(180_000);

const repoRoot = resolve(__dirname, '../../../..');

/** Processes whose command line names `text` (anvil names its state file in the data folder). */
function processesNaming(text: string): string[] {
  try {
    return execFileSync('pgrep', ['-af', text], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('npm run ops under a supervisor', () => {
  it('SIGTERM to npm alone (as systemd or a container runtime sends it) reaches ops, which stops what it started', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lottery-npm-signals-'));
    chmodSync(dataDir, 0o755);
    const npm = new NpmProcess(
      repoRoot,
      ['run', '--silent', 'ops', '--', 'start', '--chain-only', '--json', '--rounds', '0', '--no-live'],
      { DATA_DIR: dataDir, RPC_URL: '' },
    );
    try {
      await npm.waitFor(/^\{"event":"ready".*$/m, 120_000);
      expect(processesNaming(dataDir).length).toBeGreaterThan(0);
      process.kill(npm.child.pid as number, 'SIGTERM');
      await npm.exited(60_000);
      expect(npm.stdout).toMatch(/^\{"event":"stopping","signal":"SIGTERM"\}$/m);
      await eventually(async () => processesNaming(dataDir).length === 0, 'nothing left running from the data folder');
    } finally {
      for (const line of processesNaming(dataDir)) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
