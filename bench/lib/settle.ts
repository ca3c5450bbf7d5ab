import { readFileSync } from 'node:fs';
import { withClient } from './postgres';
import { sleep } from './stats';

/** Busy below this share of every core, twice in a row, counts as settled. */
const IDLE_BUSY_SHARE = 0.2;
const WINDOW_MS = 1_000;

interface CpuTimes {
  busy: number;
  total: number;
}

function cpuTimes(): CpuTimes {
  // first line of /proc/stat: user nice system idle iowait irq softirq steal …, in clock ticks
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

async function busyShareOver(ms: number): Promise<number> {
  const before = cpuTimes();
  await sleep(ms);
  const after = cpuTimes();
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : 0;
}

/**
 * Brings the machine to the same state before each timed catch-up (ours and Ponder's), whatever ran
 * just before it: Postgres writes out the pages earlier stages left dirty (a CHECKPOINT, which it would
 * otherwise do in the middle of the run), then the machine is given until it is idle (two one-second
 * windows under 20 % busy; at most `maxMs`). Without it, our catch-up ran right after the fold and COPY
 * stages' gigabytes of writes, and Ponder's after the npm install of Ponder. Returns what it did, for the log.
 */
export async function settle(databaseUrl: string, maxMs = 90_000): Promise<string> {
  const started = performance.now();
  await withClient(databaseUrl, (c) => c.query('CHECKPOINT'));
  let quietWindows = 0;
  let busy = 1;
  while (quietWindows < 2 && performance.now() - started < maxMs) {
    busy = await busyShareOver(WINDOW_MS);
    quietWindows = busy < IDLE_BUSY_SHARE ? quietWindows + 1 : 0;
  }
  const seconds = (performance.now() - started) / 1000;
  return (
    `settled in ${seconds.toFixed(1)} s (CHECKPOINT, then ${Math.round(busy * 100)} % busy over the last second` +
    `${quietWindows < 2 ? `; still busy after ${maxMs / 1000} s, going on` : ''})`
  );
}
