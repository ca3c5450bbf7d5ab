import { rmSync } from 'node:fs';
import type { Command } from 'commander';
import { dataDir, readState } from '../data-dir';
import { print } from '../output';

function running(pids: Record<string, number>): string[] {
  return Object.entries(pids)
    .filter(([, pid]) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    })
    .map(([name, pid]) => `${name} (pid ${pid})`);
}

/** `ops reset`: wipes the embedded instance's data folder (chain, Postgres, keys) for a fresh start. */
export function registerReset(program: Command): void {
  program
    .command('reset')
    .description('delete the data folder of the embedded instance (stop `npm start` first)')
    .option('--json', 'print {"removed"}')
    .action((o: { json?: boolean }) => {
      const dir = dataDir();
      const alive = running(readState(dir).pids ?? {});
      if (alive.length > 0) {
        throw new Error(`the instance is running (${alive.join(', ')}): stop \`npm start\` first (Ctrl-C)`);
      }
      rmSync(dir, { recursive: true, force: true });
      print(!!o.json, { removed: dir }, () => `removed ${dir}; the next \`npm start\` deploys and simulates afresh`);
    });
}
