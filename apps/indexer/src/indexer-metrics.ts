import { Counter, Gauge, type Registry } from 'prom-client';

/** What operators watch: how far the chain is, how far we are, and how the node behaves. */
export function createIndexerMetrics(registry: Registry) {
  return {
    headBlock: new Gauge({
      name: 'indexer_head_block',
      help: 'Latest block reported by the node',
      registers: [registry],
    }),
    indexedBlock: new Gauge({
      name: 'indexer_indexed_block',
      help: 'Last block fully appended to the event log',
      registers: [registry],
    }),
    lagBlocks: new Gauge({
      name: 'indexer_lag_blocks',
      help: 'Blocks the node has confirmed (head minus CONFIRMATIONS) and the event log does not have yet',
      registers: [registry],
    }),
    headSeenAt: new Gauge({
      name: 'indexer_head_seen_timestamp_seconds',
      help: 'Unix time of the last answer to the head probe: an unreachable node shows as its age',
      registers: [registry],
    }),
    eventsAppended: new Counter({
      name: 'indexer_events_appended_total',
      help: 'Events appended to the event log',
      registers: [registry],
    }),
    rpcErrors: new Counter({
      name: 'indexer_rpc_errors_total',
      help: 'Failed RPC calls (each is retried)',
      registers: [registry],
    }),
    reorgs: new Counter({
      name: 'indexer_reorgs_total',
      help: 'Reorgs handled (BlocksReverted appended)',
      registers: [registry],
    }),
    stalls: new Counter({
      name: 'indexer_stalls_total',
      help: 'Stalls detected by the watchdog (fetch restarted)',
      registers: [registry],
    }),
    stalled: new Gauge({
      name: 'indexer_stalled',
      help: '1 while the watchdog sees no progress although the head moved',
      registers: [registry],
    }),
  };
}

export type IndexerMetrics = ReturnType<typeof createIndexerMetrics>;
