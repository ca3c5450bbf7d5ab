import type { MinedLog } from '../decode/log-decoder';
import type { LotteryRpc } from '../rpc/lottery-rpc';
import { classifyRpcError } from '../rpc/rpc-errors';
import { retrying, sleep, type RetryOptions } from '../rpc/retry';
import type { BlockRangePlanner } from './block-range-planner';

export interface FetchedRange {
  from: number;
  to: number;
  logs: MinedLog[];
}

export interface RangeFetcherOptions {
  concurrency: number;
  retry: Omit<RetryOptions, 'what'>;
}

/**
 * Fetches [from, to] as adaptive eth_getLogs ranges, several in flight, and yields them strictly in
 * block order. A range the provider refuses as too large is split (following its hint when given)
 * and its halves fetched in order; transient failures are retried with backoff.
 */
export async function* fetchRanges(
  rpc: LotteryRpc,
  planner: BlockRangePlanner,
  from: number,
  to: number,
  options: RangeFetcherOptions,
): AsyncGenerator<FetchedRange> {
  const inFlight: Promise<FetchedRange>[] = [];
  let next = from;
  const launch = () => {
    const start = next;
    const end = Math.min(to, start + planner.nextSpan() - 1);
    next = end + 1;
    const fetched = fetchSplitting(rpc, planner, start, end, options.retry).then((logs) => ({
      from: start,
      to: end,
      logs,
    }));
    // Awaited in order below; until then a failure must not surface as an unhandled rejection.
    fetched.catch(() => undefined);
    inFlight.push(fetched);
  };
  while (next <= to || inFlight.length > 0) {
    while (next <= to && inFlight.length < options.concurrency) launch();
    const done = inFlight.shift();
    if (done) yield await done;
  }
}

async function fetchSplitting(
  rpc: LotteryRpc,
  planner: BlockRangePlanner,
  from: number,
  to: number,
  retry: Omit<RetryOptions, 'what'>,
): Promise<FetchedRange['logs']> {
  for (let attempt = 0; ; attempt++) {
    try {
      const logs = await retrying(() => rpc.logsInRange(from, to), { ...retry, what: `eth_getLogs ${from}-${to}` });
      planner.recordSuccess(to - from + 1, logs.length);
      return logs;
    } catch (error) {
      const failure = classifyRpcError(error);
      if (failure.kind !== 'range-too-large') throw error;
      if (to > from) {
        const hint = failure.suggested ? failure.suggested.to - failure.suggested.from + 1 : undefined;
        const firstSpan = planner.recordTooLarge(to - from + 1, hint);
        const mid = from + firstSpan - 1;
        const head = await fetchSplitting(rpc, planner, from, mid, retry);
        const tail = await fetchSplitting(rpc, planner, mid + 1, to, retry);
        return head.concat(tail);
      }
      // One block that is "too large" cannot be split: wait and ask again rather than skip it.
      retry.onError?.(error);
      retry.logger?.warn({ block: from, attempt }, 'single block refused as too large, retrying');
      await sleep(Math.min(10_000, 500 * 2 ** Math.min(attempt, 5)), retry.signal);
    }
  }
}
