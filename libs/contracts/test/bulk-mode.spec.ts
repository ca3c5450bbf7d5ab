/** Bulk mode on a real anvil: what it reports is what the chain holds, and every drawing it closes settles. */
import { type AnvilInstance, startAnvil } from '../src/local-chain/anvil-process';
import { createPublicClient, http } from 'viem';
import { type BulkResult, deployLottery, type LotteryDeployment, lotteryEventAddresses, simulateBulk } from '../src';
import { named, readLotteryLogs } from './support/lottery-logs';

jest.setTimeout(120_000);

describe('bulk mode', () => {
  let anvil: AnvilInstance;
  let deployment: LotteryDeployment;
  let result: BulkResult;
  let setupBlock: bigint;

  beforeAll(async () => {
    // A high block gas limit lets several 150-ticket orders share a block, as the benchmark runs it.
    anvil = await startAnvil({ gasLimit: 300_000_000n });
    deployment = await deployLottery(anvil.rpcUrl);
    setupBlock = await createPublicClient({ transport: http(anvil.rpcUrl) }).getBlockNumber();
    result = await simulateBulk(anvil.rpcUrl, deployment, {
      seed: 'bulk',
      targetEvents: 6_000,
      ticketsPerDrawing: 2_000,
    });
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('reaches the target with many tickets per order and several orders per block', () => {
    expect(result.events).toBeGreaterThanOrEqual(6_000);
    expect(result.tickets / result.orders).toBe(150);
    expect(result.orders / result.blocks).toBeGreaterThan(1);
    expect(result.eventsPerSecond).toBeGreaterThan(0);
  });

  it('counts exactly the lottery events the chain now holds beyond the deployment', async () => {
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    const logs = await client.getLogs({
      address: lotteryEventAddresses(deployment.addresses),
      fromBlock: setupBlock + 1n,
    });
    expect(logs).toHaveLength(result.events);
  });

  it('settles each drawing it closes and keeps one TicketPurchased per ticket', async () => {
    const logs = await readLotteryLogs(anvil.rpcUrl, deployment);
    expect(result.drawings).toBeGreaterThanOrEqual(1);
    expect(named(logs, 'JackpotSettled')).toHaveLength(result.drawings);
    expect(named(logs, 'TicketPurchased')).toHaveLength(result.tickets);
  });
});
