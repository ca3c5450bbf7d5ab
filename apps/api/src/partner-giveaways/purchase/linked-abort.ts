import { AbortedError } from '@lottery/chain';

export interface LinkedAbort {
  signal: AbortSignal;
  /** Drops the timer and the parents' listeners; call when the work is done. */
  release(): void;
}

/**
 * A signal that aborts when any parent does or after `timeoutMs`. Not `AbortSignal.any` with
 * `AbortSignal.timeout`: on Node 20 such a composite can be garbage-collected and then never fires, which
 * left a purchase attempt retrying forever. Here the timer and the listeners hold the controller.
 */
export function linkedAbort(parents: AbortSignal[], timeoutMs?: number): LinkedAbort {
  const controller = new AbortController();
  const abort = () => controller.abort(new AbortedError());
  const timer = timeoutMs === undefined ? null : setTimeout(abort, timeoutMs);
  for (const parent of parents) {
    if (parent.aborted) abort();
    else parent.addEventListener('abort', abort, { once: true });
  }
  return {
    signal: controller.signal,
    release() {
      if (timer !== null) clearTimeout(timer);
      for (const parent of parents) parent.removeEventListener('abort', abort);
    },
  };
}
