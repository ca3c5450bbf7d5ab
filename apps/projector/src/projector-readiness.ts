/**
 * Why the projector is not ready, or null when it is: it failed (a poison event, a broken database),
 * it has not measured its lag yet, or the read models are more than `maxLagEvents` behind the log.
 */
export function projectorNotReadyReason(state: {
  failure: string | null;
  lagEvents: number | null;
  maxLagEvents: number;
}): string | null {
  if (state.failure) return state.failure;
  if (state.lagEvents === null) return 'measuring the lag behind the event log';
  if (state.lagEvents > state.maxLagEvents) return `catching up: ${state.lagEvents} events behind the event log`;
  return null;
}
