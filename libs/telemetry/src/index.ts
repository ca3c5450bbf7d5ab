export * from './logger';
export * from './env-config';
export * from './metrics-server';
export * from './progress-reporter';
export * from './stall-watchdog';
export * from './free-port';
export * from './parent-watch';
export * from './dependency-unavailable';
