import { spawn } from 'node:child_process';
import { join } from 'node:path';

const REGISTER = join(__dirname, '..', '..', '..', 'tools', 'register.js');

/** A child that waits for shutdownSignal and prints why it stopped. */
const CHILD = `
  const { shutdownSignal } = require(${JSON.stringify(join(__dirname, 'parent-watch.ts'))});
  const logger = { info: (o, m) => process.stdout.write(o.reason + '\\n') };
  const signal = shutdownSignal(logger);
  const keepAlive = setInterval(() => undefined, 1000);
  signal.addEventListener('abort', () => { clearInterval(keepAlive); });
  process.stdout.write('ready\\n');
`;

function runChild(ipc: boolean) {
  const child = spawn(process.execPath, ['-r', REGISTER, '-e', CHILD], {
    stdio: ['ignore', 'pipe', 'inherit', ...(ipc ? (['ipc'] as const) : [])],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  const ready = new Promise<void>((resolve) => {
    const poll = setInterval(() => out.includes('ready') && (clearInterval(poll), resolve()), 20);
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exit, output: () => out };
}

describe('shutdownSignal', () => {
  it('stops a supervised app when its supervisor goes away', async () => {
    const c = runChild(true);
    await c.ready;
    c.child.disconnect();
    expect(await c.exit).toBe(0);
    expect(c.output()).toContain('supervisor exited');
  });

  it('stops on SIGTERM', async () => {
    const c = runChild(false);
    await c.ready;
    c.child.kill('SIGTERM');
    expect(await c.exit).toBe(0);
    expect(c.output()).toContain('SIGTERM');
  });
});
