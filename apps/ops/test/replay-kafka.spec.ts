import { createEventLog, type EventLogConfig } from '@lottery/event-log';
import { lotteryHistory } from '@lottery/fold-testing';
import { createLogger } from '@lottery/telemetry';
import { kafkaBrokers, uniqueName } from '@lottery/testing';
import { runReplay } from '../src/commands/replay';
import { opsDatabase } from './support/in-process-ops';

jest.setTimeout(120_000);

describe('ops replay on a Kafka log', () => {
  opsDatabase('ops_replay_kafka');

  /** A Kafka log of topics of its own (not created until something inits it). */
  const kafkaLog = (label: string): Extract<EventLogConfig, { kind: 'kafka' }> => ({
    kind: 'kafka',
    brokers: kafkaBrokers(),
    chainId: 31337,
    topicPrefix: uniqueName(label),
  });
  /** The replay of `log` into the suite's database. */
  const replay = (log: EventLogConfig, progressStream?: NodeJS.WriteStream) =>
    runReplay({
      url: String(process.env['DATABASE_URL']),
      schema: 'lottery',
      chainId: 31337,
      log,
      logger: createLogger('replay-kafka', 'silent'),
      progressStream,
    });

  it('refuses a log whose topics the indexer has not created (a mistyped prefix), naming its setting', async () => {
    const config = kafkaLog('never_indexed');
    await expect(replay(config)).rejects.toThrow(
      `there is no event log at EVENT_LOG=kafka, KAFKA_BROKERS=${kafkaBrokers().join(',')}, KAFKA_TOPIC_PREFIX=${config.topicPrefix}:`,
    );
  });

  it('ends the fold with its progress bar finished (100 %, its line ended): commit markers take the last positions', async () => {
    const config = kafkaLog('replay_kafka');
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

    await replay(config, terminal);

    expect(written).toMatch(/100\.0%[^\n]*\n\s*building the serving indexes/);
  });
});
