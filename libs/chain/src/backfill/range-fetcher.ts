import type { LotteryRpc, RangeLogs } from '../rpc/lottery-rpc';
import {
  classifyRpcError,
  isTimeout,
  RepeatedRangeRefusalError,
  rpcErrorSummary,
  SlowRangeError,
  type RpcFailure,
} from '../rpc/rpc-errors';
import { retrying, sleep, type RetryOptions } from '../rpc/retry';
import type { BlockRangePlanner } from './block-range-planner';

/** A range's logs, with the headers of its first and last blocks as the node that gave them has them. */
export interface FetchedRange extends RangeLogs {
  from: number;
  to: number;
}

export interface RangeFetcherOptions {
  concurrency: number;
  retry: Omit<RetryOptions, 'what'>;
}

type Outcome = { kind: 'logs'; range: RangeLogs } | { kind: 'too-large'; firstSpan: number };

/** Blocks not yet yielded: one eth_getLogs call in flight, or a stretch still to plan. */
interface Slot {
  from: number;
  to: number;
  fetch?: Promise<Outcome>;
}

/**
 * Fetches [from, to] as adaptive eth_getLogs ranges, several in flight, and yields them strictly in
 * block order. A range the provider refuses as too large goes back to be planned again in smaller
 * pieces (the first one following its hint when given), and each piece is yielded as soon as it and
 * everything before it have arrived: a dense stretch shows progress and is appended piece by piece,
 * where a refused range used to be held back until all its halves were in. A range that times out is
 * split the same way; other transient failures are retried with backoff.
 *
 * From a refusal until the next success, one call at a time: the planner knows nothing yet of the
 * density there, and pieces planned from the old span would be refused as well, each a fully built
 * response the node throws away. Likewise while the span grows past the last one that succeeded: after a
 * sparse stretch, several calls of a doubled span would each run into the dense stretch that follows.
 */
export async function* fetchRanges(
  rpc: Pick<LotteryRpc, 'logsInRange'>,
  planner: BlockRangePlanner,
  from: number,
  to: number,
  options: RangeFetcherOptions,
): AsyncGenerator<FetchedRange> {
  const slots: Slot[] = from <= to ? [{ from, to }] : [];
  let inFlight = 0;
  let refusedSinceSuccess = false;
  /** Blocks of the last range that succeeded: a longer span is tried by one call before it is used by several. */
  let provenSpan = 0;
  let callEnded: (() => void) | undefined;
  const fetch = async (start: number, end: number): Promise<Outcome> => {
    try {
      const outcome = await fetchOnce(rpc, start, end, options.retry);
      if (outcome.kind === 'logs') {
        planner.recordSuccess(end - start + 1, outcome.range.logs.length);
        refusedSinceSuccess = false;
        provenSpan = end - start + 1;
        return outcome;
      }
      refusedSinceSuccess = true;
      return {
        kind: 'too-large',
        firstSpan: planner.recordTooLarge(end - start + 1, {
          suggestedBlocks: outcome.hint,
          estimatedBlocks: outcome.estimate,
          maxBlocks: outcome.maxBlocks,
          maxLogs: outcome.maxLogs,
          timedOut: outcome.timedOut,
        }),
      };
    } finally {
      inFlight--;
      callEnded?.();
      callEnded = undefined;
    }
  };
  /** Launches the first piece of the earliest stretch still to plan, if any. */
  const launchEarliest = (): boolean => {
    const i = slots.findIndex((s) => !s.fetch);
    const stretch = slots[i];
    if (!stretch) return false;
    const end = Math.min(stretch.to, stretch.from + planner.nextSpan() - 1);
    inFlight++;
    const piece: Slot = { from: stretch.from, to: end, fetch: fetch(stretch.from, end) };
    // Awaited in order below; until then a failure must not surface as an unhandled rejection.
    piece.fetch?.catch(() => undefined);
    if (end === stretch.to) slots[i] = piece;
    else {
      stretch.from = end + 1;
      slots.splice(i, 0, piece);
    }
    return true;
  };
  for (;;) {
    const untried = refusedSinceSuccess || planner.nextSpan() > provenSpan;
    while (inFlight < (untried ? 1 : options.concurrency) && launchEarliest());
    const first = slots[0];
    if (!first) return;
    if (!first.fetch) {
      // A refusal re-planned the earliest stretch while the later calls fill the concurrency: wait for
      // one of them to end rather than exceed it.
      await new Promise<void>((resolve) => (callEnded = resolve));
      continue;
    }
    const outcome = await first.fetch;
    if (outcome.kind === 'logs') {
      slots.shift();
      yield { from: first.from, to: first.to, ...outcome.range };
    } else {
      // never the whole range again: the first stretch is the planner's smaller span
      const mid = Math.min(first.to - 1, first.from + outcome.firstSpan - 1);
      slots.splice(0, 1, { from: first.from, to: mid }, { from: mid + 1, to: first.to });
    }
  }
}

/** One range: its logs, or "too large" for a range of two blocks or more; a refused single block is waited for. */
async function fetchOnce(
  rpc: Pick<LotteryRpc, 'logsInRange'>,
  from: number,
  to: number,
  retry: Omit<RetryOptions, 'what'>,
): Promise<
  | { kind: 'logs'; range: RangeLogs }
  | { kind: 'too-large'; hint?: number; estimate?: number; maxBlocks?: number; maxLogs?: number; timedOut?: boolean }
> {
  for (let attempt = 0; ; attempt++) {
    try {
      const range = await retrying(() => logsInTime(rpc, from, to), {
        ...retry,
        what: `eth_getLogs ${from}-${to}`,
        splitsRanges: true,
      });
      return { kind: 'logs', range };
    } catch (error) {
      const failure = classifyRpcError(error);
      if (failure.kind !== 'range-too-large') throw error;
      if (to > from) {
        // a range the node answered too slowly is a failure of the node too: counted and told, as retries are
        if (error instanceof SlowRangeError) {
          retry.onError?.(error);
          retry.logger?.warn({ from, to, error: rpcErrorSummary(error) }, 'range timed out, split');
          return { kind: 'too-large', timedOut: true };
        }
        return { kind: 'too-large', ...refusalHint(to - from + 1, failure) };
      }
      // One block that is "too large" cannot be split: wait and ask again rather than skip it.
      retry.onError?.(error);
      // the node's words: a refusal of the batch itself ("batch requests are not supported") reads the same
      retry.logger?.warn(
        { block: from, attempt, error: rpcErrorSummary(error) },
        error instanceof RepeatedRangeRefusalError
          ? 'single block refused again and again (the node says why in error), retrying'
          : 'single block refused as too large, retrying',
      );
      await sleep(Math.min(10_000, 500 * 2 ** Math.min(attempt, 5)), retry.signal);
    }
  }
}

/**
 * What a refusal says of the span to try next: the provider's suggested range, or the share of the
 * range that would fill half the cap at the density its answer's size shows. With a Content-Length
 * (anvil sends one) that is the whole answer's size; without, viem only saw the cap overrun and this is
 * about halving. Halving alone walks down through a dense stretch one refusal at a time, and the node
 * builds every refused answer in full (for a first range over a whole dense history, seconds each).
 */
function refusalHint(
  blocks: number,
  failure: Extract<RpcFailure, { kind: 'range-too-large' }>,
): { hint?: number; estimate?: number; maxBlocks?: number; maxLogs?: number } {
  const cap = {
    ...(failure.maxBlocks === undefined ? {} : { maxBlocks: failure.maxBlocks }),
    ...(failure.maxLogs === undefined ? {} : { maxLogs: failure.maxLogs }),
  };
  if (failure.suggested) return { hint: failure.suggested.to - failure.suggested.from + 1, ...cap };
  if (failure.oversize === undefined) return cap;
  return { estimate: Math.max(1, Math.floor(blocks / (2 * failure.oversize))), ...cap };
}

/** A multi-block range that times out is split rather than asked again (see SlowRangeError). */
async function logsInTime(rpc: Pick<LotteryRpc, 'logsInRange'>, from: number, to: number): Promise<RangeLogs> {
  try {
    return await rpc.logsInRange(from, to);
  } catch (error) {
    if (to > from && isTimeout(error)) throw new SlowRangeError(from, to, error);
    throw error;
  }
}
