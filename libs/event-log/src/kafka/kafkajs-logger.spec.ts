import { logLevel } from 'kafkajs';
import { kafkaLogCreator } from './kafkajs-logger';

describe("kafkajs's log lines", () => {
  const printed = (entry: { level: logLevel; label: string; log: Record<string, unknown> }): string[] => {
    const lines: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
    try {
      kafkaLogCreator(logLevel.WARN)({ namespace: 'Connection', timestamp: '', ...entry } as never);
    } finally {
      spy.mockRestore();
    }
    return lines;
  };

  it('say what failed in one line, without the stack', () => {
    const lines = printed({
      level: logLevel.ERROR,
      label: 'ERROR',
      log: {
        message: 'Connection error: connect ECONNREFUSED 127.0.0.1:1',
        broker: '127.0.0.1:1',
        stack: 'Error: connect ECONNREFUSED 127.0.0.1:1\n    at TCPConnectWrap.afterConnect',
      },
    });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        message: '[Connection] Connection error: connect ECONNREFUSED 127.0.0.1:1',
        broker: '127.0.0.1:1',
        level: 'ERROR',
      },
    ]);
  });

  it('leave out the answers kafkajs retries and succeeds with', () => {
    const retried = { message: 'another concurrent operation on the same transaction was ongoing' };
    expect(printed({ level: logLevel.ERROR, label: 'ERROR', log: retried })).toEqual([]);
  });
});
