import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs (pino) on stderr, so stdout stays free for a command's own output. */
export function createLogger(name: string, level = process.env['LOG_LEVEL'] ?? 'info'): Logger {
  return pino({ name, level, base: { app: name } }, pino.destination(2));
}
