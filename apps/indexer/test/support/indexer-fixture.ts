import type { Address } from 'viem';
import type { ChainFollower, ChainFollowerOptions } from '@lottery/chain';
import { deployLottery, lotteryEventAddresses, type LotteryDeployment } from '@lottery/contracts';
import type { EventEnvelope } from '@lottery/domain';
import { createEventLog, type EventLog } from '@lottery/event-log';
import { lotteryFollower, readWholeLog } from '@lottery/pipeline-testing';
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
