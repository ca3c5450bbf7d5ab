import pino from 'pino';
import type { Address } from 'viem';
import { ChainFollower, LotteryRpc, type ChainFollowerOptions } from '@lottery/chain';
import { deployLottery, lotteryEventAddresses, type LotteryDeployment } from '@lottery/contracts';
import type { EventEnvelope } from '@lottery/domain';
import { createEventLog, type EventLog } from '@lottery/event-log';
import { createTestDatabase, startAnvil, type AnvilInstance } from '@lottery/testing';

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
  const rpc = new LotteryRpc(
    rpcUrl,
    f.addresses.map((a) => a.toLowerCase() as `0x${string}`),
    { timeoutMs: 10_000 },
  );
  return new ChainFollower(rpc, f.eventLog, {
    chainId: f.deployment.chainId,
    jackpot: f.deployment.addresses.jackpot,
    startBlock: Number(f.deployment.deployBlock),
    confirmations: 0,
    reorgDepth: 32,
    concurrency: 4,
    pollIntervalMs: 20,
    logger: pino({ level: 'silent' }),
    ...overrides,
  });
}

export async function readWholeLog(log: EventLog): Promise<EventEnvelope[]> {
  const out: EventEnvelope[] = [];
  for (let from = await log.head(); ;) {
    const batch = await log.read(from, 10_000);
    if (batch.length === 0) return out;
    for (const e of batch) out.push(e.event);
    from = batch[batch.length - 1].position + 1;
  }
}

/** Waits until `check` holds, polling; fails with `what` after the timeout. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function rpcCall(rpcUrl: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export async function headOf(rpcUrl: string): Promise<number> {
  return Number(await rpcCall(rpcUrl, 'eth_blockNumber'));
}
