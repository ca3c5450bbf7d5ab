import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface ProjectorMetrics {
  events: Counter<'result'>;
  reverts: Counter;
  batchSeconds: Histogram;
  position: Gauge;
  lagEvents: Gauge;
  outages: Counter;
}

export function createProjectorMetrics(registry: Registry): ProjectorMetrics {
  return {
    events: new Counter({
      name: 'lottery_projector_events_total',
      help: 'Log records handled, by result: applied to the read models, skipped as already applied, or revert (a BlocksReverted)',
      labelNames: ['result'],
      registers: [registry],
    }),
    reverts: new Counter({
      name: 'lottery_projector_reverts_total',
      help: 'BlocksReverted records that undid applied blocks',
      registers: [registry],
    }),
    batchSeconds: new Histogram({
      name: 'lottery_projector_batch_seconds',
      help: 'Time to apply one batch (one transaction)',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    position: new Gauge({
      name: 'lottery_projector_position',
      help: 'Last event-log position applied',
      registers: [registry],
    }),
    lagEvents: new Gauge({
      name: 'lottery_projector_lag_events',
      help: 'Log positions between the last applied one and the log tail',
      registers: [registry],
    }),
    outages: new Counter({
      name: 'lottery_projector_database_outages_total',
      help: 'Times the read-model database (or a Postgres event log) was unreachable and the projector waited to resume',
      registers: [registry],
    }),
  };
}
