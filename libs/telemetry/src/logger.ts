import pino, { type Logger } from 'pino';
import { urlHidingHooks } from './hidden-urls';

export type { Logger };

/**
 * Structured JSON logs (pino) on stderr, so stdout stays free for a command's own output; the URLs the
 * process was configured with are hidden in every line.
 */
export function createLogger(name: string, level = process.env['LOG_LEVEL'] ?? 'info'): Logger {
  return pino({ name, level, base: { app: name }, ...urlHidingHooks() }, pino.destination(2));
}
