import type { Address, Hex, PublicClient } from 'viem';
import { dailyTicketPoolAbi, jackpotAbi, ticketNftAbi, type LotteryDeployment } from '@lottery/contracts';

/**
 * What the contracts themselves say, read with viem (views and logs), independently of the indexer and the
 * projection: the reference the API's answers on projected data are compared with.
 */
export interface TicketOnChain {
  userTicketId: bigint;
  drawingId: bigint;
  recipient: Address;
  referralScheme: Hex;
  /** msg.sender of the Jackpot call, as TicketOrderProcessed of the same transaction reports it. */
  buyer: Address;
  txHash: Hex;
  blockNumber: bigint;
  /** The NFT's later transfers (not the mint); a burn (claim) goes to the zero address. */
  transfers: { to: Address; txHash: Hex }[];
}

export interface PoolEntryOnChain {
  drawingId: bigint;
  entrant: Address;
  entryId: bigint;
  blockNumber: bigint;
}

export interface LotteryChainReads {
  tickets: Map<bigint, TicketOnChain>;
  referralSchemes: Map<Hex, { referrers: readonly Address[]; split: readonly bigint[] }>;
  /** Lifetime ReferralFeeCollected per referrer (lowercase). */
  referralFeesCollected: Map<string, bigint>;
  poolEntries: PoolEntryOnChain[];
  poolPurchases: { drawingId: bigint; txHash: Hex; blockNumber: bigint }[];
  poolWinners: { drawingId: bigint; winner: Address; entryId: bigint; blockNumber: bigint }[];
  blockTime(blockNumber: bigint): Promise<Date>;
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export async function readLotteryChain(chain: PublicClient, deployment: LotteryDeployment): Promise<LotteryChainReads> {
  const { jackpot, ticketNft, dailyTicketPool } = deployment.addresses;
  const range = { fromBlock: deployment.deployBlock, toBlock: 'latest' } as const;
  const [purchased, orders, schemes, fees, transfers, entered, poolBought, poolWon] = await Promise.all([
    chain.getContractEvents({ address: jackpot, abi: jackpotAbi, eventName: 'TicketPurchased', ...range }),
    chain.getContractEvents({ address: jackpot, abi: jackpotAbi, eventName: 'TicketOrderProcessed', ...range }),
    chain.getContractEvents({ address: jackpot, abi: jackpotAbi, eventName: 'ReferralSchemeAdded', ...range }),
    chain.getContractEvents({ address: jackpot, abi: jackpotAbi, eventName: 'ReferralFeeCollected', ...range }),
    chain.getContractEvents({ address: ticketNft, abi: ticketNftAbi, eventName: 'Transfer', ...range }),
    chain.getContractEvents({ address: dailyTicketPool, abi: dailyTicketPoolAbi, eventName: 'PoolEntered', ...range }),
    chain.getContractEvents({
      address: dailyTicketPool,
      abi: dailyTicketPoolAbi,
      eventName: 'PoolTicketsBought',
      ...range,
    }),
    chain.getContractEvents({
      address: dailyTicketPool,
      abi: dailyTicketPoolAbi,
      eventName: 'PoolWinnerSelected',
      ...range,
    }),
  ]);

  const buyerOfTx = new Map(orders.map((log) => [log.transactionHash, log.args.buyer as Address]));
  const tickets = new Map<bigint, TicketOnChain>();
  for (const log of purchased) {
    const buyer = buyerOfTx.get(log.transactionHash);
    if (!buyer) throw new Error(`purchase ${log.transactionHash} has no TicketOrderProcessed`);
    tickets.set(log.args.userTicketId as bigint, {
      userTicketId: log.args.userTicketId as bigint,
      drawingId: log.args.currentDrawingId as bigint,
      recipient: log.args.recipient as Address,
      referralScheme: log.args.referralScheme as Hex,
      buyer,
      txHash: log.transactionHash,
      blockNumber: log.blockNumber,
      transfers: [],
    });
  }
  for (const log of transfers) {
    if (log.args.from === ZERO_ADDRESS) continue;
    const ticket = tickets.get(log.args.tokenId as bigint);
    if (!ticket) throw new Error(`transfer of unknown ticket ${log.args.tokenId}`);
    ticket.transfers.push({ to: log.args.to as Address, txHash: log.transactionHash });
  }

  const referralFeesCollected = new Map<string, bigint>();
  for (const log of fees) {
    const referrer = (log.args.referrer as Address).toLowerCase();
    referralFeesCollected.set(referrer, (referralFeesCollected.get(referrer) ?? 0n) + (log.args.amount as bigint));
  }

  const blockTimes = new Map<bigint, Date>();
  return {
    tickets,
    referralSchemes: new Map(
      schemes.map((log) => [
        log.args.referralSchemeId as Hex,
        { referrers: log.args.referrers as readonly Address[], split: log.args.referralSplit as readonly bigint[] },
      ]),
    ),
    referralFeesCollected,
    poolEntries: entered.map((log) => ({
      drawingId: log.args.drawingId as bigint,
      entrant: log.args.entrant as Address,
      entryId: log.args.entryId as bigint,
      blockNumber: log.blockNumber,
    })),
    poolPurchases: poolBought.map((log) => ({
      drawingId: log.args.drawingId as bigint,
      txHash: log.transactionHash,
      blockNumber: log.blockNumber,
    })),
    poolWinners: poolWon.map((log) => ({
      drawingId: log.args.drawingId as bigint,
      winner: log.args.winner as Address,
      entryId: log.args.entryId as bigint,
      blockNumber: log.blockNumber,
    })),
    async blockTime(blockNumber) {
      let time = blockTimes.get(blockNumber);
      if (!time) {
        time = new Date(Number((await chain.getBlock({ blockNumber })).timestamp) * 1000);
        blockTimes.set(blockNumber, time);
      }
      return time;
    },
  };
}

export async function drawingState(chain: PublicClient, deployment: LotteryDeployment, drawingId: bigint) {
  return chain.readContract({
    address: deployment.addresses.jackpot,
    abi: jackpotAbi,
    functionName: 'getDrawingState',
    args: [drawingId],
  });
}

export async function drawingTierPayouts(chain: PublicClient, deployment: LotteryDeployment, drawingId: bigint) {
  return chain.readContract({
    address: deployment.addresses.jackpot,
    abi: jackpotAbi,
    functionName: 'getDrawingTierPayouts',
    args: [drawingId],
  });
}

export async function ticketInfo(chain: PublicClient, deployment: LotteryDeployment, ticketId: bigint) {
  return chain.readContract({
    address: deployment.addresses.ticketNft,
    abi: ticketNftAbi,
    functionName: 'getTicketInfo',
    args: [ticketId],
  });
}

/** The Jackpot's packed winning ticket: bit n per normal n, plus bit (ballMax + bonusball). */
export function unpackWinningTicket(packed: bigint, ballMax: number, bonusballMax: number) {
  const bit = (n: number) => (packed >> BigInt(n)) & 1n;
  const normals = Array.from({ length: ballMax }, (_, i) => i + 1).filter((n) => bit(n) === 1n);
  const bonusballs = Array.from({ length: bonusballMax }, (_, i) => i + 1).filter((b) => bit(ballMax + b) === 1n);
  return { normals, bonusballs };
}

/** The ticket NFT's numbers: byte i = i-th normal as bought, byte 5 = bonusball. */
export function unpackTicketNumbers(numbers: number | bigint) {
  const value = BigInt(numbers);
  const byte = (i: number) => Number((value >> BigInt(8 * i)) & 0xffn);
  return { normals: [0, 1, 2, 3, 4].map(byte), bonusball: byte(5) };
}
