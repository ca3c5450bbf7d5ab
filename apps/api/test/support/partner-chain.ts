import { lotteryEventsAbi } from '@lottery/chain';
import {
  deployLottery,
  LOTTERY_ABIS,
  type LotteryDeployment,
  startAnvil,
  type AnvilInstance,
} from '@lottery/contracts';
import type { Hex } from '@lottery/domain';
import { createPublicClient, createWalletClient, getAbiItem, http, maxUint256, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_CHAIN_ID, ANVIL_DEV_PRIVATE_KEY, type GiveawaysConfig } from '../../src/config/giveaways-config';
import { partnerSource } from '../../src/partner-giveaways/purchase/ticket-buyer-chain';

export interface PartnerChain {
  anvil: AnvilInstance;
  deployment: LotteryDeployment;
  client: PublicClient;
  /** The giveaway's configuration against this chain; point `rpcUrl` at a fault proxy as needed. */
  config: GiveawaysConfig;
  /** Sets the operator's allowance for the random ticket buyer (0 makes every purchase revert). */
  approveBuyer(amount: bigint): Promise<void>;
  /** On-chain tickets bought with a partner's source: recipient and purchase transaction. */
  partnerTickets(partnerId: number): Promise<{ recipient: Hex; txHash: Hex }[]>;
  operatorNonce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * anvil with the local lottery deployed. The operator is anvil's dev account 0 (the deployer, which holds
 * the operator float of test USDC); the random ticket buyer pulls each ticket's price from it, so it
 * approves the buyer once, as an operator does when setting up the giveaway.
 */
export async function startPartnerChain(): Promise<PartnerChain> {
  const anvil = await startAnvil();
  const deployment = await deployLottery(anvil.rpcUrl);
  const transport = http(anvil.rpcUrl);
  const client = createPublicClient({ transport });
  const operator = privateKeyToAccount(ANVIL_DEV_PRIVATE_KEY);
  const wallet = createWalletClient({ transport, account: operator });
  const { randomTicketBuyer, usdc, jackpot } = deployment.addresses;
  const approveBuyer = async (amount: bigint) => {
    const hash = await wallet.writeContract({
      chain: null,
      address: usdc,
      abi: LOTTERY_ABIS.usdc,
      functionName: 'approve',
      args: [randomTicketBuyer, amount],
    });
    await client.waitForTransactionReceipt({ hash });
  };
  await approveBuyer(maxUint256);
  const ticketPurchased = getAbiItem({ abi: lotteryEventsAbi, name: 'TicketPurchased' });
  return {
    anvil,
    deployment,
    client,
    config: {
      rpcUrl: anvil.rpcUrl,
      chainId: ANVIL_CHAIN_ID,
      randomTicketBuyer: randomTicketBuyer.toLowerCase() as Hex,
      operatorPrivateKey: ANVIL_DEV_PRIVATE_KEY,
      jobTimeoutMs: 30_000,
    },
    approveBuyer,
    async partnerTickets(partnerId) {
      const logs = await client.getLogs({
        address: jackpot,
        event: ticketPurchased,
        args: { source: partnerSource(partnerId) },
        fromBlock: deployment.deployBlock,
      });
      return logs.map((log) => ({ recipient: log.args.recipient?.toLowerCase() as Hex, txHash: log.transactionHash }));
    },
    operatorNonce: () => client.getTransactionCount({ address: operator.address }),
    stop: () => anvil.stop(),
  };
}

/** The given wallets: distinct, lowercase, never anvil's funded accounts. */
export function testWallets(count: number, seed: number): Hex[] {
  return Array.from({ length: count }, (_, i) => `0x${(seed * 1000 + i + 1).toString(16).padStart(40, 'b')}` as Hex);
}
