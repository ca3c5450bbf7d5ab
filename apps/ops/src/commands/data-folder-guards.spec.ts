import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { runInProcess } from '../../test/support/in-process-ops';
import { dataDir, readState, writeState } from '../data-dir';
import { liveProcesses } from '../instance-processes';
import { registerReset } from './reset';
import { runStart } from './start';

const reset = (...args: string[]) => runInProcess(registerReset, 'reset', ...args);

/** A start that would do little: these tests expect it refused before anything starts. */
const START_OPTIONS = {
  rounds: 0,
  ticketsPerRound: 1,
  purchaseEvery: 1,
  drawEvery: 1,
  live: false,
  seed: 's',
  host: '127.0.0.1',
};

describe('the data folder guards of ops reset and ops start', () => {
  const saved = process.env['DATA_DIR'];
  let scratch: string;
  /** Processes alive while the suite runs: another instance's ops and api, and an unrelated program. */
  const running = (command: string, args: string[]) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    return { pid: child.pid as number, kill: () => child.kill() };
  };
  const idle = 'setTimeout(() => undefined, 600_000)';
  let other: { pid: number; kill(): boolean };
  let otherApi: { pid: number; kill(): boolean };
  let unrelated: { pid: number; kill(): boolean };
  beforeAll(() => {
    other = running(process.execPath, ['-e', idle, 'apps/ops/src/main.ts']);
    otherApi = running(process.execPath, ['-e', idle, 'apps/api/src/main.ts']);
    unrelated = running('sleep', ['600']);
  });
  afterAll(() => [other, otherApi, unrelated].forEach((p) => p.kill()));
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'ops-reset-'));
  });
  afterEach(() => {
    if (saved === undefined) delete process.env['DATA_DIR'];
    else process.env['DATA_DIR'] = saved;
    rmSync(scratch, { recursive: true, force: true });
  });

  it("keeps the instance's state (the local demo keys) to its owner", () => {
    const dir = join(scratch, 'data');
    writeState({ demoApiKey: 'lt_live_x' }, dir);
    expect(statSync(join(dir, 'instance.json')).mode & 0o777).toBe(0o600);
  });

  it("removes an instance's data folder whose processes are gone", async () => {
    const dir = join(scratch, 'data');
    writeState({ postgresPort: 54329, pids: { ops: 2 ** 22 + 1 } }, dir);
    mkdirSync(join(dir, 'logs'));
    process.env['DATA_DIR'] = dir;
    expect(JSON.parse(await reset('--json'))).toEqual({ removed: dir, stopped: [] });
    expect(existsSync(dir)).toBe(false);
  });

  it('stops a server an unclean stop left running before removing the folder, and says which', async () => {
    const dir = join(scratch, 'data');
    // a process whose command line names the folder, as the instance's anvil's does
    const server = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', dir], { stdio: 'ignore' });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      writeState({ anvilPid: server.pid, pids: {} }, dir);
      process.env['DATA_DIR'] = dir;
      expect(JSON.parse(await reset('--json'))).toEqual({ removed: dir, stopped: [`anvil (pid ${server.pid})`] });
      await exited;
      expect(existsSync(dir)).toBe(false);
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('removes nothing, and says so, when the data folder does not exist (a mistyped DATA_DIR)', async () => {
    const dir = join(scratch, 'mistyped');
    process.env['DATA_DIR'] = dir;
    expect(JSON.parse(await reset('--json'))).toEqual({ removed: null, stopped: [] });
    expect(await reset()).toMatch(/nothing to remove: no data folder at .*mistyped/);
  });

  it('refuses while a recorded process runs', async () => {
    const dir = join(scratch, 'data');
    writeState({ pids: { ops: other.pid } }, dir);
    process.env['DATA_DIR'] = dir;
    await expect(reset()).rejects.toThrow(`the instance is running (ops (pid ${other.pid}))`);
    expect(existsSync(dir)).toBe(true);
  });

  it('never counts this process as a running instance (a container restarted as pid 1 finds itself recorded)', () => {
    const dir = join(scratch, 'data');
    writeState({ pids: { ops: process.pid, api: otherApi.pid } }, dir);
    expect(liveProcesses(dir)).toEqual([`api (pid ${otherApi.pid})`]);
  });

  it('does not take a recorded pid another program runs now for the instance (reused after a reboot)', async () => {
    const dir = join(scratch, 'data');
    writeState({ pids: { ops: unrelated.pid, indexer: unrelated.pid } }, dir);
    process.env['DATA_DIR'] = dir;
    expect(liveProcesses(dir)).toEqual([]);
    expect(JSON.parse(await reset('--json'))).toEqual({ removed: dir, stopped: [] });
  });

  it('refuses a folder no instance wrote, and keeps it', async () => {
    writeFileSync(join(scratch, 'notes.txt'), 'keep me');
    process.env['DATA_DIR'] = scratch;
    await expect(reset('--json')).rejects.toThrow('holds no instance.json');
    expect(existsSync(join(scratch, 'notes.txt'))).toBe(true);
  });

  it('says what to do with an unreadable instance.json, instead of a parser stack trace, and keeps the folder', async () => {
    const dir = join(scratch, 'data');
    for (const content of ['{bad', '', '[]']) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'instance.json'), content);
      process.env['DATA_DIR'] = dir;
      await expect(reset('--json')).rejects.toThrow(
        new RegExp(
          `${dir}/instance.json is unreadable \\(.+\\): if no instance runs from ${dir} .*remove that folder by hand`,
        ),
      );
      expect(readdirSync(dir)).toEqual(['instance.json']);
    }
  });

  it('takes an empty DATA_DIR as unset: the default folder, never the current one', () => {
    process.env['DATA_DIR'] = '';
    expect(dataDir()).not.toBe(resolve(process.cwd()));
    expect(dataDir()).toMatch(/[/\\]\.data$/);
  });

  /** Runs `work` with the variables set as given (undefined: unset), restoring them after. */
  const withEnv = async (vars: Record<string, string | undefined>, work: () => Promise<void>) => {
    const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
    const assign = (values: Record<string, string | undefined>) => {
      for (const [name, value] of Object.entries(values)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    };
    assign(vars);
    try {
      await work();
    } finally {
      assign(saved);
    }
  };

  it('start refuses a PORT that is no port number, naming it, and writes nothing', async () => {
    const dir = join(scratch, 'data');
    process.env['DATA_DIR'] = dir;
    for (const port of ['abc', '0', '99999', '80.5']) {
      await withEnv({ PORT: port }, () =>
        expect(runStart(START_OPTIONS)).rejects.toThrow(`PORT must be a port number from 1 to 65535, got "${port}"`),
      );
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('start refuses a PORT in use, naming it, and writes nothing', async () => {
    const dir = join(scratch, 'data');
    process.env['DATA_DIR'] = dir;
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as AddressInfo).port);
      await withEnv({ PORT: port }, () =>
        expect(runStart(START_OPTIONS)).rejects.toThrow(`port ${port} is in use: stop what runs there or set PORT`),
      );
    } finally {
      taken.close();
    }
    expect(existsSync(dir)).toBe(false);
  });

  it("start refuses a real chain's variables of the wrong shape before it records anything", async () => {
    const dir = join(scratch, 'data');
    process.env['DATA_DIR'] = dir;
    const chain = { RPC_URL: 'http://127.0.0.1:1', CHAIN_ID: 'abc', START_BLOCK: 'x', JACKPOT_ADDRESS: '0x1' };
    await withEnv(chain, () =>
      expect(runStart(START_OPTIONS)).rejects.toThrow('CHAIN_ID must be a whole number from 1, got "abc"'),
    );
    expect(existsSync(dir)).toBe(false);
  });

  it('start refuses a folder of other files (ops reset would then remove them), writing nothing there', async () => {
    writeFileSync(join(scratch, 'thesis.txt'), 'keep me');
    process.env['DATA_DIR'] = scratch;
    await expect(runStart(START_OPTIONS)).rejects.toThrow(
      `${scratch} holds files and no instance.json: it is not an embedded instance's data folder`,
    );
    expect(readdirSync(scratch)).toEqual(['thesis.txt']);
    await expect(reset('--json')).rejects.toThrow('holds no instance.json');
    expect(readdirSync(scratch)).toEqual(['thesis.txt']);
  });

  it("start takes a folder holding only the record's temporary file a crash left, not a volume's root", async () => {
    const dir = join(scratch, 'volume');
    mkdirSync(dir);
    writeFileSync(join(dir, 'instance.json.tmp'), '{"pids":');
    process.env['DATA_DIR'] = dir;
    // refused further on (PORT), not for the folder
    await withEnv({ PORT: 'abc' }, () => expect(runStart(START_OPTIONS)).rejects.toThrow(/^PORT must be/));
    // a volume's root: reset could not remove it (lost+found is root's, the mount point busy)
    mkdirSync(join(dir, 'lost+found'));
    await expect(runStart(START_OPTIONS)).rejects.toThrow(/holds files and no instance.json/);
  });

  it('start refuses the --chain-only options without --chain-only', async () => {
    process.env['DATA_DIR'] = join(scratch, 'data');
    for (const extra of [{ deploymentEnv: join(scratch, 'chain.env') }, { advertisedRpcUrl: 'http://chain:8545' }]) {
      await expect(runStart({ ...START_OPTIONS, ...extra })).rejects.toThrow(/add --chain-only/);
    }
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('start --chain-only refuses a --deployment-env it could not write, before deploying anything', async () => {
    process.env['DATA_DIR'] = join(scratch, 'data');
    const chainOnly = { ...START_OPTIONS, chainOnly: true };
    await expect(runStart({ ...chainOnly, deploymentEnv: join(scratch, 'missing', 'chain.env') })).rejects.toThrow(
      `--deployment-env ${join(scratch, 'missing', 'chain.env')}: its folder ${join(scratch, 'missing')} does not exist`,
    );
    await expect(runStart({ ...chainOnly, deploymentEnv: scratch })).rejects.toThrow(/is a folder, not a file/);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('start refuses a data folder an instance runs from, and leaves its record alone', async () => {
    const dir = join(scratch, 'data');
    writeState({ pids: { ops: other.pid } }, dir);
    process.env['DATA_DIR'] = dir;
    await expect(runStart(START_OPTIONS)).rejects.toThrow(
      `an instance already runs from ${dir} (ops (pid ${other.pid}))`,
    );
    expect(readState(dir).pids).toEqual({ ops: other.pid });
  });
});
