import { createCliLogger, createLogger, humanLogLine } from './logger';

describe('the CLI logger', () => {
  it('writes readable lines on a terminal: time, level, message, fields, an error by its message', () => {
    const written: string[] = [];
    const terminal = { isTTY: true, write: (line: string) => written.push(line) > 0 };
    const logger = createCliLogger('ops', terminal as unknown as NodeJS.WriteStream, 'info');
    logger.warn({ child: 'indexer', code: 0, err: new Error('gone') }, 'app stopped, restarting in 2s');
    logger.debug('not at this level');
    expect(written).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d warn app stopped, restarting in 2s \(gone\) {2}child=indexer code=0\n$/),
    ]);
  });

  it('reads any pino line, leaving out the app name every line carries', () => {
    const line = JSON.stringify({
      level: 50,
      time: Date.UTC(2026, 0, 2, 3, 4, 5),
      app: 'ops',
      name: 'ops',
      msg: 'm',
      n: [1],
    });
    expect(humanLogLine(line)).toBe('03:04:05 error m  n=[1]\n');
  });

  it('refuses a level it does not know, naming LOG_LEVEL and the levels there are', () => {
    const levels = /LOG_LEVEL: "verbose" is not a level; use one of fatal, error, warn, info, debug, trace, silent/;
    expect(() => createLogger('app', 'verbose')).toThrow(levels);
    expect(() => createCliLogger('ops', { isTTY: true, write: () => true }, 'verbose')).toThrow(levels);
    expect(createLogger('app', 'debug').level).toBe('debug');
  });
});
