import type { LotteryRpc } from '@lottery/chain';
import { Registry } from 'prom-client';
import type { FollowerSupervisor } from './follower-supervisor';
import { HeadProbe } from './head-probe';
import { createIndexerMetrics } from './indexer-metrics';

describe('the head probe', () => {
  it('counts as lag only what the node has confirmed and the log lacks, once the follower has said where it is', async () => {
    const registry = new Registry();
    const metrics = createIndexerMetrics(registry);
    const supervisor = { position: { head: 0, indexed: 0 } } as FollowerSupervisor;
    const rpc = { headNumber: async () => 100 } as LotteryRpc;
    const probe = new HeadProbe(rpc, supervisor, metrics, 3);
    const stop = new AbortController();
    const watching = probe.watch(stop.signal);
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort();
    await watching;
    const value = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values[0]?.value;
    // at start the follower has not reported: no lag against block 0, the whole chain
    expect([await value('indexer_head_block'), await value('indexer_lag_blocks')]).toEqual([100, 0]);
    expect(supervisor.position.head).toBe(97);
    expect(await value('indexer_head_seen_timestamp_seconds')).toBeGreaterThan(0);
    probe.indexed(90);
    expect(await value('indexer_lag_blocks')).toBe(7);
  });
});
