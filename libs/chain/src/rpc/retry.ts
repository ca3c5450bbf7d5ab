import { classifyRpcError, isNodeAnswer, RepeatedRangeRefusalError, retryAfterMs, rpcErrorSummary } from './rpc-errors';

/** A range call the node refuses this many times in a row, with an error not known as a range refusal, is split. */
const REFUSALS_BEFORE_SPLIT = 3;

export interface RetryLogger {
  warn(obj: object, msg: string): void;
}

export interface RetryOptions {
  logger?: RetryLogger;
  signal?: AbortSignal;
  /** What the call is, for the log line. */
  what: string;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Called on every failure, e.g. to count RPC errors in metrics. */
  onError?: (error: unknown) => void;
  /**
   * The call is an eth_getLogs over a range its caller splits: a "range too large" answer is thrown
   * to the caller instead of retried, and so is an error the node gives REFUSALS_BEFORE_SPLIT times in a
   * row (RepeatedRangeRefusalError), whatever it says. To any other call such an answer (providers send
   * -32005 "limit exceeded" for rate limits too) is one more failure to wait out.
   */
  splitsRanges?: boolean;
}

export class AbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortedError';
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Settles with `promise`, or rejects with AbortedError as soon as `signal` aborts (a hung call is left behind). */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new AbortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * Retries an RPC call until it succeeds or the signal aborts: a node that is down or answers garbage
 * is waited out with capped exponential backoff and a log line per failure, never a crash that loses
 * position. Rate limits wait longer. Range errors of a range call are not retried here: its caller
 * splits the range (`splitsRanges`).
 */
export async function retrying<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  const base = options.baseDelayMs ?? 200;
  const max = options.maxDelayMs ?? 10_000;
  let refusals = 0;
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw new AbortedError();
    try {
      return await abortable(call(), options.signal);
    } catch (error) {
      if (error instanceof AbortedError) throw error;
      const failure = classifyRpcError(error);
      if (failure.kind === 'range-too-large' && options.splitsRanges) throw error;
      refusals = failure.kind === 'transient' && isNodeAnswer(error) ? refusals + 1 : 0;
      if (options.splitsRanges && refusals >= REFUSALS_BEFORE_SPLIT)
        throw new RepeatedRangeRefusalError(options.what, error);
      options.onError?.(error);
      const backoff = Math.min(max, base * 2 ** Math.min(attempt, 16) * (failure.kind === 'rate-limited' ? 4 : 1));
      // a throttling provider's own word on when to come back, if it says so
      const delay = failure.kind === 'rate-limited' ? Math.max(backoff, retryAfterMs(error) ?? 0) : backoff;
      options.logger?.warn(
        {
          what: options.what,
          attempt: attempt + 1,
          delayMs: delay,
          error: rpcErrorSummary(error),
        },
        'rpc call failed, retrying',
      );
      await sleep(delay, options.signal);
    }
  }
}
