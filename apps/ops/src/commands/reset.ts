import { existsSync, rmSync } from 'node:fs';
import type { Command } from 'commander';
import { dataDir, statePath } from '../data-dir';
import { liveProcesses, startIsRunning, stopLeftServers } from '../instance-processes';
import { print } from '../output';

/**
 * `ops reset`: wipes the embedded instance's data folder (chain, Postgres, keys) for a fresh start. Only
 * a folder an instance wrote (it holds instance.json) and none of whose processes runs: a `DATA_DIR`
 * naming any other folder is refused, not emptied.
 */
export function registerReset(program: Command): void {
  program
    .command('reset')
    .description('delete the data folder of the embedded instance (stop `npm start` first)')
    .option(
      '--json',
      'print {"removed","stopped"}: the folder removed (null when there was none), and the servers an unclean ' +
        'stop had left running that it stopped',
    )
    .action(async (o: { json?: boolean }) => {
      const dir = dataDir();
      if (!existsSync(dir)) {
        // a mistyped DATA_DIR must not read as a wipe of the real folder
        print(
          !!o.json,
          { removed: null, stopped: [] },
          () => `nothing to remove: no data folder at ${dir} (check DATA_DIR)`,
        );
        return;
      }
      if (!existsSync(statePath(dir))) {
        throw new Error(`${dir} holds no instance.json: it is not an embedded instance's data folder (check DATA_DIR)`);
      }
      // the servers a start killed without its cleanup left running would go on over a deleted folder
      const stopped = startIsRunning(dir) ? [] : await stopLeftServers(dir);
      const alive = liveProcesses(dir);
      if (alive.length > 0) {
        throw new Error(`the instance is running (${alive.join(', ')}): stop \`npm start\` first (Ctrl-C)`);
      }
      rmSync(dir, { recursive: true, force: true });
      if (process.env['DATABASE_URL']) {
        process.stderr.write(
          'DATABASE_URL is set: the event log and read models there are kept, and belong to the chain just ' +
            'removed; drop them (or set EVENT_LOG_SCHEMA and READ_SCHEMA to new schemas) before the next start\n',
        );
      }
      print(
        !!o.json,
        { removed: dir, stopped },
        () =>
          (stopped.length > 0 ? `stopped what an unclean stop left running: ${stopped.join(', ')}\n` : '') +
          `removed ${dir}; the next \`npm start\` deploys and simulates afresh`,
      );
    });
}
