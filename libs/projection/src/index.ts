export * from './fold-rules';
export * from './poison-event-error';
export type { LogRecord } from './decode/decode-event';
export type { BatchResult } from './fold/apply-batch';
export { applyBatchInTransaction } from './fold/apply-batch';
export * from './projection';
export * from './stored-position-behind-error';
export * from './replay/replay';
export type { ReplayPhase, ReplayProgress } from './replay/replay-progress';
