import { createPublicClient, createWalletClient, http, maxUint256 } from 'viem';
import type { LotteryDeployment } from './deploy';
import { LOTTERY_ABIS } from './lottery-abis';

/**
 * The partner giveaway buys from the operator's wallet (the deployer, which holds the operator float of
 * test USDC): the random ticket buyer pulls each ticket's price from it, so the operator approves it, as a
 * real operator does once when setting the giveaway up. An amount of 0 makes every giveaway purchase revert.
 */
export async function approveRandomTicketBuyer(
  rpcUrl: string,
  deployment: LotteryDeployment,
  amount: bigint = maxUint256,
): Promise<void> {
  const transport = http(rpcUrl);
  const wallet = createWalletClient({ transport, account: deployment.deployer });
  const hash = await wallet.writeContract({
    chain: null,
    address: deployment.addresses.usdc,
    abi: LOTTERY_ABIS.usdc,
    functionName: 'approve',
    args: [deployment.addresses.randomTicketBuyer, amount],
  });
  await createPublicClient({ transport }).waitForTransactionReceipt({ hash });
}
