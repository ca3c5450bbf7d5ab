/** The signals that stop `ops start` (Ctrl-C, a supervisor's stop), which it handles itself. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
