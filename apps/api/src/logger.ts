import pino, { type Logger } from 'pino';
import type { LogLevel } from './config/api-config';

export type AppLogger = Logger;

/** The Nest provider token of the app's structured logger. */
export const APP_LOGGER = Symbol('AppLogger');

export function createAppLogger(level: LogLevel): AppLogger {
  return pino({ level, base: { service: 'api' } });
}
