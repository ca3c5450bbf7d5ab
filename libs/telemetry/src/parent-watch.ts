import type { Logger } from 'pino';

/**
 * An app started by a supervisor over an IPC channel (`ops start`) stops gracefully when the channel
 * closes, i.e. when the supervisor is gone, even if it was killed with SIGKILL and could not stop its
 * children. Without a channel (Kubernetes, compose, a shell) this does nothing.
 */
export function stopWhenParentExits(stop: () => void): void {
  if (!process.send) return;
  process.once('disconnect', stop);
  // The channel alone must not keep the process alive once its work is done.
  process.channel?.unref();
}

/** Aborts on SIGTERM, SIGINT or the supervisor's exit: the app finishes its current batch and stops. */
export function shutdownSignal(logger: Logger): AbortSignal {
  const shutdown = new AbortController();
  const stop = (reason: string) => () => {
    logger.info({ reason }, 'shutting down after the current batch');
    shutdown.abort();
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, stop(signal));
  stopWhenParentExits(stop('supervisor exited'));
  return shutdown.signal;
}
