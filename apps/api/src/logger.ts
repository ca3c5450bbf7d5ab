import { urlHidingHooks } from '@lottery/telemetry';
import pino, { type Logger } from 'pino';
import type { LogLevel } from '@lottery/telemetry';

export type AppLogger = Logger;

/** The Nest provider token of the app's structured logger. */
export const APP_LOGGER = Symbol('AppLogger');

/** The URLs the API was configured with (RPC_URL, DATABASE_URL, REDIS_URL) are hidden in every line. */
export function createAppLogger(level: LogLevel): AppLogger {
  return pino({ level, base: { service: 'api' }, ...urlHidingHooks() });
}
