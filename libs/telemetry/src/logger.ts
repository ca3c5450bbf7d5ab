import pino, { type Logger } from 'pino';
import { z } from 'zod';
import { urlHidingHooks } from './hidden-urls';

export type { Logger };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL as every app validates it with the rest of its environment. */
export const LOG_LEVEL_ENV = z.enum(LOG_LEVELS).default('info');

/** A level pino knows, or an error naming the variable (pino's own names only its custom levels). */
function checkedLevel(level: string): LogLevel {
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new Error(`LOG_LEVEL: "${level}" is not a level; use one of ${LOG_LEVELS.join(', ')}`);
}

/**
 * Structured JSON logs (pino) on stderr, so stdout stays free for a command's own output; the URLs the
 * process was configured with are hidden in every line.
 */
export function createLogger(name: string, level = process.env['LOG_LEVEL'] || 'info'): Logger {
  return pino({ name, level: checkedLevel(level), base: { app: name }, ...urlHidingHooks() }, pino.destination(2));
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/**
 * A CLI's logger: on a terminal one readable line an entry (time, level, message, fields), for the person
 * reading it beside the command's own lines; JSON lines otherwise (a pipe, a file, a log collector).
 */
export function createCliLogger(
  name: string,
  stream: Pick<NodeJS.WriteStream, 'isTTY' | 'write'> = process.stderr,
  level = process.env['LOG_LEVEL'] || 'info',
): Logger {
  if (!stream.isTTY) return createLogger(name, level);
  return pino(
    { name, level: checkedLevel(level), base: { app: name }, ...urlHidingHooks() },
    { write: (line: string) => void stream.write(humanLogLine(line)) },
  );
}

/** One JSON log line as a person reads it: `12:34:56 warn message  key=value …` (the app's own name left out). */
export function humanLogLine(json: string): string {
  const { level, time, msg, app: _app, name: _name, err, ...fields } = JSON.parse(json) as Record<string, unknown>;
  const label = LEVEL_NAMES[Number(level)] ?? String(level);
  const clock = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '';
  const cause = err && typeof err === 'object' && 'message' in err ? ` (${String(err.message)})` : '';
  const extras = Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return `${clock} ${label} ${String(msg ?? '')}${cause}${extras ? `  ${extras}` : ''}\n`;
}
