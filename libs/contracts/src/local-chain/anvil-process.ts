/**
 * A local chain: runs the anvil binary shipped by the npm package `@foundry-rs/anvil`. Tests get a
 * throwaway node on a free port; `ops start` gets one on a fixed port whose state survives restarts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { dirname, join } from 'node:path';

export interface AnvilOptions {
  chainId?: number;
  /** Seconds between blocks; unset = a block per transaction (automine). */
  blockTime?: number;
  /** Block gas limit (bulk simulations put hundreds of tickets in one transaction). */
  gasLimit?: bigint;
  /** Number of funded dev accounts. */
  accounts?: number;
  /** Genesis block timestamp (seconds); later blocks follow the wall clock from there. */
  timestamp?: number;
  /** Default 0: the OS picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Loads the chain from this file at start and dumps it there on exit and every few seconds. */
  stateFile?: string;
  /**
   * Keep only the last N blocks' states, in memory. By default anvil keeps every block's state and pages
   * old ones to disk: with a large history each new block then takes seconds. Calls at older blocks fail.
   */
  pruneHistory?: number;
}

export interface AnvilInstance {
  rpcUrl: string;
  port: number;
  /** Its process, for a supervisor that must find it again after dying itself. */
  pid: number;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 20_000;
const HOW_TO_INSTALL =
  'Install it with `npm ci` at the repository root: the binary comes from the optional dependency ' +
  '`@foundry-rs/anvil-<platform>` and `@foundry-rs/anvil` must be approved to run its install script ' +
  '(package.json "allowScripts": { "@foundry-rs/anvil": true }).';

/** The platform package's binary, e.g. @foundry-rs/anvil-linux-amd64/bin/anvil. */
export function anvilBinaryPath(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let packageDir: string;
  try {
    // The packages are ESM without "exports" of their binary: resolve their package.json instead.
    packageDir = dirname(require.resolve(`${platformPackage}/package.json`));
  } catch {
    throw new Error(`anvil is not installed: the package ${platformPackage} was not found. ${HOW_TO_INSTALL}`);
  }
  const binary = join(packageDir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    throw new Error(`anvil is not installed: ${binary} is missing or not executable. ${HOW_TO_INSTALL}`);
  }
  return binary;
}

function anvilArgs(options: AnvilOptions): string[] {
  // Port 0: the OS picks a free port and anvil prints it, so parallel suites never race for one.
  const args = [
    '--host',
    options.host ?? '127.0.0.1',
    '--port',
    String(options.port ?? 0),
    '--chain-id',
    String(options.chainId ?? 31337),
  ];
  if (options.stateFile) args.push('--state', options.stateFile, '--state-interval', '5');
  args.push('--accounts', String(options.accounts ?? 10));
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));
  if (options.gasLimit !== undefined) args.push('--gas-limit', options.gasLimit.toString());
  if (options.timestamp !== undefined) args.push('--timestamp', String(options.timestamp));
  if (options.pruneHistory !== undefined) args.push('--prune-history', String(options.pruneHistory));
  return args;
}

/** Resolves with the port once anvil prints "Listening on 127.0.0.1:<port>". */
function waitForListening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onStderr = (chunk: Buffer): void => void (output += chunk.toString());
    const onError = (error: Error): void => fail(error.message);
    const onExit = (code: number | null, signal: string | null): void => fail(`exited with ${signal ?? code}`);
    const detach = (): void => {
      clearTimeout(timer);
      child.stdout?.removeListener('data', onStdout);
      child.stderr?.removeListener('data', onStderr);
      child.removeListener('error', onError);
      child.removeListener('exit', onExit);
      // Keep draining the pipes (anvil logs every request) so it never blocks on a full pipe.
      child.stdout?.resume();
      child.stderr?.resume();
    };
    const fail = (why: string): void => {
      detach();
      child.kill('SIGKILL');
      reject(new Error(`anvil did not start: ${why}\n${output.slice(-2000)}`));
    };
    const onStdout = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Listening on [\d.:a-fA-F[\]]+:(\d+)/.exec(output);
      if (match) {
        detach();
        resolve(Number(match[1]));
      }
    };
    const timer = setTimeout(() => fail(`no "Listening on" line after ${STARTUP_TIMEOUT_MS} ms`), STARTUP_TIMEOUT_MS);
    child.stdout?.on('data', onStdout);
    child.stderr?.on('data', onStderr);
    child.once('error', onError);
    child.once('exit', onExit);
  });
}

async function answersChainId(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    const body = (await response.json()) as { result?: string };
    return typeof body.result === 'string';
  } catch {
    return false;
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilInstance> {
  const binary = anvilBinaryPath();
  const child = spawn(binary, anvilArgs(options), { stdio: ['ignore', 'pipe', 'pipe'] });
  // A test runner that exits without calling stop() must not leave an orphaned node behind.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const stop = stopper(child);
  const port = await waitForListening(child);
  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (!(await answersChainId(rpcUrl))) {
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil listens on ${rpcUrl} but does not answer eth_chainId`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { rpcUrl, port, pid: child.pid as number, stop };
}
