import { type LotteryRpc, sleep } from '@lottery/chain';
import type { FollowerSupervisor } from './follower-supervisor';
import type { IndexerMetrics } from './indexer-metrics';

/** How often the node's head is asked for, apart from the follower. */
const HEAD_POLL_MS = 2_000;

/**
 * The head as the node reports it, independently of the follower, so a hung fetch shows up as a stall
 * and the lag as what the node has confirmed and the log does not have, whatever the follower last saw.
 */
export class HeadProbe {
  private nodeHead: number | undefined;
  /** Unknown until the follower reports: a lag against 0 would be the whole chain on every start. */
  private indexedBlock: number | undefined;

  constructor(
    private readonly rpc: LotteryRpc,
    private readonly supervisor: FollowerSupervisor,
    private readonly metrics: IndexerMetrics,
    private readonly confirmations: number,
  ) {}

  indexed(block: number): void {
    this.indexedBlock = block;
    this.updateLag();
  }

  async watch(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const head = await this.rpc.headNumber();
        this.nodeHead = head;
        this.metrics.headBlock.set(head);
        this.metrics.headSeenAt.set(Date.now() / 1000);
        const confirmed = head - this.confirmations;
        this.supervisor.position.head = Math.max(this.supervisor.position.head, confirmed);
        this.updateLag();
      } catch {
        // The follower logs RPC failures; an unreachable node shows as the age of headSeenAt.
      }
      await sleep(HEAD_POLL_MS, signal).catch(() => undefined);
    }
  }

  private updateLag(): void {
    if (this.nodeHead === undefined || this.indexedBlock === undefined) return;
    this.metrics.lagBlocks.set(Math.max(0, this.nodeHead - this.confirmations - this.indexedBlock));
  }
}
