import { randomBytes } from 'node:crypto';
import { encodeFunctionData, getAddress, stringToHex, type Address, type Hash } from 'viem';
import { jackpotAbi, type SeededRandom, type SimulationContext } from '@lottery/contracts';
import { sleep } from './stats';

export interface MinedPurchase {
  hash: Hash;
  recipient: Address;
  blockNumber: number;
  /** performance.now() when the receipt first answered: the block had been mined by then. */
  minedAt: number;
}

const RECEIPT_POLL_MS = 2;

/**
 * One ticket for a fresh wallet, and the moment its block is mined. anvil answers eth_sendTransaction
 * once the transaction is in its pool and mines the block right after (which takes seconds when the
 * chain's state is large), so the receipt is polled: its first appearance is the "mined" instant,
 * a few ms late at most (which shortens the latencies measured from it by as much).
 */
export async function buyOneTicket(
  ctx: SimulationContext,
  random: SeededRandom,
  buyerIndex: number,
  label: string,
): Promise<MinedPurchase> {
  const recipient = getAddress(`0x${randomBytes(20).toString('hex')}`);
  const normals = random.sample(
    Array.from({ length: ctx.deployment.config.normalBallMax }, (_, i) => i + 1),
    5,
  );
  const data = encodeFunctionData({
    abi: jackpotAbi,
    functionName: 'buyTickets',
    args: [
      [{ normals, bonusball: random.int(1, ctx.deployment.config.bonusballMax) }],
      recipient,
      [],
      [],
      stringToHex(label, { size: 32 }),
    ],
  });
  const buyer = ctx.wallets.players[buyerIndex % ctx.wallets.players.length] as Address;
  const hash = await ctx.rpc.send({ from: buyer, to: ctx.deployment.addresses.jackpot, data });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const receipt = (await ctx.rpc.publicClient.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
      blockNumber: `0x${string}`;
      status: `0x${string}`;
    } | null;
    if (receipt) {
      const minedAt = performance.now();
      if (receipt.status !== '0x1') throw new Error(`purchase ${hash} reverted`);
      return { hash, recipient, blockNumber: Number(receipt.blockNumber), minedAt };
    }
    if (Date.now() > deadline) throw new Error(`purchase ${hash} was not mined within 120 s`);
    await sleep(RECEIPT_POLL_MS);
  }
}
