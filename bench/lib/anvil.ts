/**
 * anvil for the benchmark: the binary libs/contracts ships, started with `--prune-history 32`. By default
 * anvil keeps every block's state snapshot and, past its in-memory window, writes them to disk: with the
 * state of a 200,000-event history (~200,000 tickets and their NFTs) that took gigabytes of memory. Pruned,
 * it keeps the last 32 states in memory only; logs, receipts and blocks stay. Calls at an old block then
 * fail with "state unavailable", which the indexer handles (it reads edgePerTicket at the head instead).
 * Each new block still takes anvil a second or two with that much state (it is mined after
 * eth_sendTransaction has answered: see purchase.ts for how the latency run finds the moment).
 */
import { spawn } from 'node:child_process';
import { anvilBinaryPath, type AnvilInstance } from '@lottery/contracts';

const STARTUP_TIMEOUT_MS = 20_000;

export function startBenchAnvil(options: { gasLimit: bigint; keepStates?: number }): Promise<AnvilInstance> {
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--chain-id',
    '31337',
    '--accounts',
    '10',
    '--gas-limit',
    options.gasLimit.toString(),
    '--prune-history',
    String(options.keepStates ?? 32),
  ];
  const child = spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`anvil did not start within ${STARTUP_TIMEOUT_MS} ms:\n${output.slice(-2_000)}`));
    }, STARTUP_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with ${code}:\n${output.slice(-2_000)}`));
    });
    const onStdout = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Listening on [\d.]+:(\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.removeListener('data', onStdout);
      // keep draining: anvil logs every request and must never block on a full pipe
      child.stdout?.resume();
      child.stderr?.resume();
      const port = Number(match[1]);
      resolve({ rpcUrl: `http://127.0.0.1:${port}`, port, pid: child.pid as number, stop });
    };
    child.stdout?.on('data', onStdout);
  });
}
