/**
 * The compiled ABIs by contract key, and one merged ABI of every lottery event for decoding mixed logs.
 */
import type { Abi, Address } from 'viem';
import type { ContractKey } from './compile/contract-names';
import {
  dailyTicketPoolAbi,
  jackpotAbi,
  lpManagerAbi,
  payoutCalculatorAbi,
  randomTicketBuyerAbi,
  ticketNftAbi,
  usdcAbi,
} from './generated/artifacts';

export const LOTTERY_ABIS = {
  usdc: usdcAbi,
  jackpot: jackpotAbi,
  lpManager: lpManagerAbi,
  payoutCalculator: payoutCalculatorAbi,
  ticketNft: ticketNftAbi,
  randomTicketBuyer: randomTicketBuyerAbi,
  dailyTicketPool: dailyTicketPoolAbi,
} as const satisfies Record<ContractKey, Abi>;

export type LotteryAddresses = Record<ContractKey, Address>;

/** Contracts whose logs make up the lottery's history (USDC is only the payment token). */
export const LOTTERY_EVENT_SOURCES = [
  'jackpot',
  'lpManager',
  'payoutCalculator',
  'ticketNft',
  'randomTicketBuyer',
  'dailyTicketPool',
] as const satisfies readonly ContractKey[];

/** Every custom error of every contract, to name a revert whichever contract raised it. */
export const lotteryErrorsAbi: Abi = Object.values(LOTTERY_ABIS).flatMap((abi) =>
  (abi as Abi).filter((item) => item.type === 'error'),
);

export function lotteryEventAddresses(addresses: LotteryAddresses): Address[] {
  return LOTTERY_EVENT_SOURCES.map((key) => addresses[key]);
}
