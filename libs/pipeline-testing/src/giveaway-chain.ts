import { lotteryEventsAbi, partnerSource } from '@lottery/chain';
import {
  approveRandomTicketBuyer,
  deployLottery,
  startAnvil,
  type AnvilInstance,
  type LotteryDeployment,
} from '@lottery/contracts';
import type { Hex } from '@lottery/domain';
import { createPublicClient, getAbiItem, http, type PublicClient } from 'viem';

/** anvil's chain id, the only one on which the API accepts OPERATOR_PRIVATE_KEY=anvil. */
export const ANVIL_CHAIN_ID = 31337;

/** The API's giveaway variables for this chain, signing as the operator (anvil's dev account 0). */
export interface GiveawayEnv {
  RPC_URL: string;
  CHAIN_ID: string;
  RANDOM_TICKET_BUYER_ADDRESS: string;
  OPERATOR_PRIVATE_KEY: 'anvil';
}

/** The API's giveaway variables for a local lottery on anvil. */
export function giveawayApiEnv(rpcUrl: string, deployment: LotteryDeployment): GiveawayEnv {
  if (deployment.chainId !== ANVIL_CHAIN_ID) throw new Error(`anvil runs chain ${deployment.chainId}`);
  return {
    RPC_URL: rpcUrl,
    CHAIN_ID: String(deployment.chainId),
    RANDOM_TICKET_BUYER_ADDRESS: deployment.addresses.randomTicketBuyer,
    OPERATOR_PRIVATE_KEY: 'anvil',
  };
}

export interface GiveawayChain {
  anvil: AnvilInstance;
  deployment: LotteryDeployment;
  client: PublicClient;
  /** Point `rpcUrl` at a fault proxy to fail the signer's calls. */
  apiEnv(rpcUrl?: string): GiveawayEnv;
  /** Sets the operator's allowance for the random ticket buyer (0 makes every purchase revert). */
  approveBuyer(amount: bigint): Promise<void>;
  /** On-chain tickets bought with a partner's source: recipient and purchase transaction. */
  partnerTickets(partnerId: number): Promise<{ recipient: Hex; txHash: Hex }[]>;
  operatorNonce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * anvil with the local lottery deployed and the giveaway set up as an operator does it: the operator (the
 * deployer, anvil's dev account 0, holding the operator float of test USDC) approves the random ticket buyer.
 */
export async function startGiveawayChain(): Promise<GiveawayChain> {
  const anvil = await startAnvil();
  try {
    const deployment = await deployLottery(anvil.rpcUrl);
    await approveRandomTicketBuyer(anvil.rpcUrl, deployment);
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    const ticketPurchased = getAbiItem({ abi: lotteryEventsAbi, name: 'TicketPurchased' });
    return {
      anvil,
      deployment,
      client,
      apiEnv: (rpcUrl = anvil.rpcUrl) => giveawayApiEnv(rpcUrl, deployment),
      approveBuyer: (amount) => approveRandomTicketBuyer(anvil.rpcUrl, deployment, amount),
      async partnerTickets(partnerId) {
        const logs = await client.getLogs({
          address: deployment.addresses.jackpot,
          event: ticketPurchased,
          args: { source: partnerSource(partnerId) },
          fromBlock: deployment.deployBlock,
        });
        return logs.map((log) => ({
          recipient: log.args.recipient?.toLowerCase() as Hex,
          txHash: log.transactionHash,
        }));
      },
      operatorNonce: () => client.getTransactionCount({ address: deployment.deployer }),
      stop: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/** `count` distinct lowercase wallets for a seed, never one of anvil's funded accounts. */
export function testWallets(count: number, seed: number): Hex[] {
  return Array.from({ length: count }, (_, i) => `0x${(seed * 1000 + i + 1).toString(16).padStart(40, 'b')}` as Hex);
}
