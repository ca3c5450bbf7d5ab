import { createEventLog, type EventLogConfig } from '@lottery/event-log';
import { lotteryHistory } from '@lottery/fold-testing';
import { createLogger } from '@lottery/telemetry';
import { kafkaBrokers, uniqueName } from '@lottery/testing';
import { runReplay } from '../src/commands/replay';
import { opsDatabase } from './support/in-process-ops';

jest.setTimeout(120_000);

describe("ops replay's progress bar", () => {
  opsDatabase('ops_replay_progress');

  it('is finished (100 %, its line ended) when the fold ends on a Kafka log, whose commit markers take positions', async () => {
    const config: EventLogConfig = {
      kind: 'kafka',
      brokers: kafkaBrokers(),
      chainId: 31337,
      topicPrefix: uniqueName('replay_progress'),
    };
    const log = createEventLog(config);
    try {
      await log.init();
      const history = lotteryHistory({ seed: 7, settledRounds: 1, purchasesPerRound: 4, wallets: 2 });
      const half = Math.floor(history.length / 2);
      for (const events of [history.slice(0, half), history.slice(half)]) {
        const last = events[events.length - 1];
        await log.append(events, { blockNumber: last.blockNumber, blockHash: last.blockHash, recentBlocks: [] });
      }
    } finally {
      await log.close();
    }
    let written = '';
    const terminal = {
      isTTY: true,
      write: (text: string) => ((written += text), true),
    } as unknown as NodeJS.WriteStream;

    await runReplay({
      url: String(process.env['DATABASE_URL']),
      schema: 'lottery',
      chainId: 31337,
      log: config,
      logger: createLogger('replay-progress', 'silent'),
      progressStream: terminal,
    });

    expect(written).toMatch(/100\.0%[^\n]*\n\s*building the serving indexes/);
  });
});
