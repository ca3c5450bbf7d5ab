import type { Address } from 'viem';
import { AbortedError, type ChainFollower, type ChainFollowerOptions } from '@lottery/chain';
import { deployLottery, lotteryEventAddresses, type LotteryDeployment } from '@lottery/contracts';
import type { EventEnvelope } from '@lottery/domain';
import { createEventLog, type EventLog } from '@lottery/event-log';
import { eventually, headOf, lotteryFollower, readWholeLog } from '@lottery/pipeline-testing';
import { createTestDatabase, startAnvil, type AnvilInstance } from '@lottery/testing';

export { eventually, headOf, rpcCall } from '@lottery/pipeline-testing';

/** A chain with the lottery deployed, a Postgres event log, and a follower writing into it. */
export interface IndexerFixture {
  anvil: AnvilInstance;
  deployment: LotteryDeployment;
  addresses: Address[];
  eventLog: EventLog;
  databaseUrl: string;
  dispose(): Promise<void>;
}

export async function startIndexerFixture(label: string): Promise<IndexerFixture> {
  const anvil = await startAnvil({ gasLimit: 100_000_000n });
  const deployment = await deployLottery(anvil.rpcUrl);
  const db = await createTestDatabase(label);
  const eventLog = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: 'lottery_log' });
  await eventLog.init();
  return {
    anvil,
    deployment,
    addresses: lotteryEventAddresses(deployment.addresses),
    eventLog,
    databaseUrl: db.url,
    dispose: async () => {
      await eventLog.close();
      await db.drop();
      await anvil.stop();
    },
  };
}

export function followerFor(
  f: IndexerFixture,
  rpcUrl = f.anvil.rpcUrl,
  overrides: Partial<ChainFollowerOptions> = {},
): ChainFollower {
  return lotteryFollower(rpcUrl, f.deployment, f.eventLog, overrides);
}

/** The envelopes of the whole log, in order. */
export async function readLogEnvelopes(log: EventLog): Promise<EventEnvelope[]> {
  return (await readWholeLog(log)).map((r) => r.event);
}

/**
 * A follower of `f`'s chain of its own, on a fresh Postgres log, through `url`, until `work` is done (a
 * failure of the follower fails it); then the log's envelopes.
 */
export async function followIntoFreshLog(
  f: IndexerFixture,
  label: string,
  url: string,
  overrides: Partial<ChainFollowerOptions>,
  work: (log: EventLog, failed: () => unknown) => Promise<void> = (log, failed) => checkpointAtHead(f, log, failed),
): Promise<EventEnvelope[]> {
  const db = await createTestDatabase(label);
  const log = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: 'lottery_log' });
  const controller = new AbortController();
  let running: Promise<void> | undefined;
  let failure: unknown;
  try {
    await log.init();
    running = followerFor({ ...f, eventLog: log }, url, overrides)
      .run(controller.signal)
      .catch((e: unknown) => {
        if (!(e instanceof AbortedError)) failure = e;
      });
    await work(log, () => failure);
    controller.abort();
    await running;
    if (failure) throw failure;
    return await readLogEnvelopes(log);
  } finally {
    controller.abort();
    await running;
    await log.close();
    await db.drop();
  }
}

/** Until `log`'s checkpoint is at the head of `f`'s chain; a failure of its follower fails it. */
export async function checkpointAtHead(f: IndexerFixture, log: EventLog, failed: () => unknown): Promise<void> {
  const head = await headOf(f.anvil.rpcUrl);
  await eventually(async () => {
    if (failed()) throw failed();
    return ((await log.lastCheckpoint())?.blockNumber ?? -1) >= head;
  }, `checkpoint at ${head}`);
}
