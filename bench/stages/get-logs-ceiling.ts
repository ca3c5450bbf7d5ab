/**
 * The node's ceiling: how fast can anything read these logs over eth_getLogs? Raw fetch + JSON.parse
 * (viem refuses responses above 10 MB, and a ceiling should not pay for its formatting), the indexer's
 * filter (its contracts, the lottery event topics). A first pass learns how many logs each block holds;
 * the measured passes then use ideal ranges of a target number of logs each (no guessing of the density,
 * never a refused or split request), sequentially and several in flight. The fastest shape is the ceiling.
 */
import { toEventSelector, type Hex } from 'viem';
import { lotteryEventsAbi } from '@lottery/chain';
import { log, secondsSince } from '../lib/stats';

export interface GetLogsRun {
  label: string;
  targetLogs: number | null;
  concurrency: number;
  requests: number;
  logs: number;
  megabytes: number;
  seconds: number;
  logsPerSecond: number;
}

export interface GetLogsCeiling {
  runs: GetLogsRun[];
  best: GetLogsRun;
  totalLogs: number;
  /** The most logs one block holds. */
  maxLogsPerBlock: number;
  /** The last log of the history: when a consumer has applied it, it has caught up. */
  lastLog: { blockNumber: number; logIndex: number } | null;
}

const TOPICS = lotteryEventsAbi.map((e) => toEventSelector(e));

interface RawLog {
  blockNumber: Hex;
  logIndex: Hex;
}

export async function getLogs(
  rpcUrl: string,
  addresses: readonly string[],
  from: number,
  to: number,
): Promise<{ logs: RawLog[]; bytes: number }> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getLogs',
      params: [
        { address: addresses, topics: [TOPICS], fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` },
      ],
    }),
  });
  const text = await response.text();
  const body = JSON.parse(text) as { result?: RawLog[]; error?: { message: string } };
  if (!body.result) throw new Error(`eth_getLogs ${from}-${to}: ${body.error?.message ?? response.status}`);
  return { logs: body.result, bytes: Buffer.byteLength(text) };
}

type Range = readonly [from: number, to: number];

/** Consecutive ranges of at most `target` logs each (a denser block is a range of its own). */
function plan(perBlock: Map<number, number>, fromBlock: number, toBlock: number, target: number | null): Range[] {
  if (target === null) return [[fromBlock, toBlock]];
  const ranges: Range[] = [];
  let start = fromBlock;
  let count = 0;
  for (let b = fromBlock; b <= toBlock; b++) {
    const here = perBlock.get(b) ?? 0;
    if (count > 0 && count + here > target) {
      ranges.push([start, b - 1]);
      start = b;
      count = 0;
    }
    count += here;
  }
  ranges.push([start, toBlock]);
  return ranges;
}

async function measure(
  rpcUrl: string,
  addresses: readonly string[],
  ranges: readonly Range[],
  concurrency: number,
  targetLogs: number | null,
): Promise<GetLogsRun> {
  let next = 0;
  let logs = 0;
  let bytes = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < ranges.length) {
      const [from, to] = ranges[next++] as Range;
      const result = await getLogs(rpcUrl, addresses, from, to);
      logs += result.logs.length;
      bytes += result.bytes;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  const seconds = secondsSince(started);
  return {
    label:
      targetLogs === null ? 'whole range in 1 request' : `ranges of ≤ ${targetLogs} logs, ${concurrency} in flight`,
    targetLogs,
    concurrency,
    requests: ranges.length,
    logs,
    megabytes: bytes / 2 ** 20,
    seconds,
    logsPerSecond: logs / seconds,
  };
}

/** Logs per block, and the last log, from one pass of fixed 25-block ranges. */
export async function surveyLogs(rpcUrl: string, addresses: readonly string[], fromBlock: number, toBlock: number) {
  const perBlock = new Map<number, number>();
  let total = 0;
  let lastLog: GetLogsCeiling['lastLog'] = null;
  for (let from = fromBlock; from <= toBlock; from += 25) {
    const { logs } = await getLogs(rpcUrl, addresses, from, Math.min(toBlock, from + 24));
    for (const l of logs) {
      const blockNumber = Number(l.blockNumber);
      perBlock.set(blockNumber, (perBlock.get(blockNumber) ?? 0) + 1);
      lastLog = { blockNumber, logIndex: Number(l.logIndex) };
    }
    total += logs.length;
  }
  return { perBlock, total, lastLog };
}

export async function measureGetLogsCeiling(
  rpcUrl: string,
  addresses: readonly string[],
  fromBlock: number,
  toBlock: number,
): Promise<GetLogsCeiling> {
  // also warms the node's caches as much as they are for the indexer later
  const survey = await surveyLogs(rpcUrl, addresses, fromBlock, toBlock);
  const shapes: [number | null, number][] = [
    // one response of everything: only while it stays far from V8's string size limit
    ...(survey.total <= 50_000 ? ([[null, 1]] as [null, number][]) : []),
    [1_000, 1],
    [4_000, 1],
    [20_000, 1],
    [1_000, 4],
    [4_000, 4],
    [20_000, 4],
  ];
  const runs: GetLogsRun[] = [];
  for (const [target, concurrency] of shapes) {
    try {
      const run = await measure(
        rpcUrl,
        addresses,
        plan(survey.perBlock, fromBlock, toBlock, target),
        concurrency,
        target,
      );
      if (run.logs !== survey.total) throw new Error(`read ${run.logs} logs, the survey read ${survey.total}`);
      runs.push(run);
      log(
        `  getLogs ${run.label}: ${Math.round(run.logsPerSecond)} logs/s (${run.requests} requests, ${run.megabytes.toFixed(0)} MB)`,
      );
    } catch (error) {
      log(
        `  getLogs ≤ ${target ?? 'all'} × ${concurrency}: failed (${error instanceof Error ? error.message : error})`,
      );
    }
  }
  const best = runs.reduce<GetLogsRun | undefined>(
    (a, b) => (!a || b.logsPerSecond > a.logsPerSecond ? b : a),
    undefined,
  );
  if (!best) throw new Error('no eth_getLogs shape succeeded');
  const maxLogsPerBlock = Math.max(0, ...survey.perBlock.values());
  return { runs, best, totalLogs: survey.total, maxLogsPerBlock, lastLog: survey.lastLog };
}
