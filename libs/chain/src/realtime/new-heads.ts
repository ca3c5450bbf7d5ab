import { createPublicClient, webSocket } from 'viem';
import { AbortedError } from '../rpc/retry';

/** A subscription's socket and how to end it. */
interface Watch {
  unwatch(): void;
  closeSocket(): Promise<void>;
}

/**
 * The node's announcements of new blocks (`eth_subscribe("newHeads")` over WebSocket): the follower
 * waits on them between head polls, so a block is read as soon as it is announced rather than at the
 * next poll. They only wake the follower, which reads the head itself as before; a lost or late
 * announcement costs latency (the poll still comes), never a block.
 *
 * A failed or closed socket is reopened and subscribed again after `reopenMs`, for as long as it takes:
 * viem's own reconnection gives up after five attempts and does not renew the subscription.
 */
export class NewHeads {
  private readonly waiters = new Set<() => void>();
  /** An announcement no one was waiting for: the next wait returns at once. */
  private pending = false;
  private watch: Watch | undefined;
  private reopenTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly url: string,
    private readonly onError: (error: Error) => void,
    private readonly reopenMs: number,
  ) {
    this.subscribe();
  }

  /** Subscribes on `url` (ws:// or wss://). */
  static open(url: string, onError: (error: Error) => void, options: { reopenMs?: number } = {}): NewHeads {
    return new NewHeads(url, onError, options.reopenMs ?? 2_000);
  }

  /**
   * Resolves true at the next announced block (at once if one came while nobody waited), false after
   * `ms`; rejects with AbortedError when `signal` aborts.
   */
  next(ms: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.reject(new AbortedError());
    if (this.pending) {
      this.pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve, reject) => {
      const settle = (settleWith: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(wake);
        settleWith();
      };
      const wake = () => settle(() => resolve(true));
      const onAbort = () => settle(() => reject(new AbortedError()));
      const timer = setTimeout(() => settle(() => resolve(false)), ms);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(wake);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reopenTimer);
    await this.endWatch();
  }

  private subscribe(): void {
    const client = createPublicClient({ transport: webSocket(this.url, { retryCount: 0, reconnect: false }) });
    const unwatch = client.watchBlockNumber({
      onBlockNumber: () => this.announce(),
      onError: (error) => this.lost(error),
      emitOnBegin: false,
    });
    this.watch = {
      unwatch,
      // a socket that never opened has nothing to close
      closeSocket: () =>
        client.transport.getRpcClient().then(
          (socket) => socket.close(),
          () => undefined,
        ),
    };
  }

  private lost(error: Error): void {
    this.onError(error);
    if (this.closed || this.reopenTimer) return;
    void this.endWatch();
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = undefined;
      if (this.closed) return;
      // blocks mined while the socket was down were never announced: the follower's poll finds them
      this.subscribe();
    }, this.reopenMs);
  }

  private async endWatch(): Promise<void> {
    const watch = this.watch;
    this.watch = undefined;
    watch?.unwatch();
    await watch?.closeSocket();
  }

  private announce(): void {
    if (this.waiters.size === 0) {
      this.pending = true;
      return;
    }
    for (const wake of [...this.waiters]) wake();
  }
}
