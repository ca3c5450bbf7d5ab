/**
 * Typed state-changing calls on the lottery contracts: `writers.jackpot(from, 'buyTickets', [...])` checks the
 * function name and arguments against the compiled ABI and returns the mined receipt.
 */
import {
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type EncodeFunctionDataParameters,
  type Hex,
  type TransactionReceipt,
  encodeFunctionData,
} from 'viem';
import { type LotteryAddresses, LOTTERY_ABIS } from '../lottery-abis';
import type { LotteryRpc } from './lottery-rpc';

type Mutability = 'nonpayable' | 'payable';
export type WriteFunctionName<abi extends Abi> = ContractFunctionName<abi, Mutability>;
export type WriteArgs<abi extends Abi, fn extends WriteFunctionName<abi>> = ContractFunctionArgs<abi, Mutability, fn>;

export function encodeWrite<const abi extends Abi, fn extends WriteFunctionName<abi>>(
  abi: abi,
  functionName: fn,
  args: WriteArgs<abi, fn>,
): Hex {
  // viem's parameter type is a deep conditional on the ABI; the signature above already checked name and args.
  return encodeFunctionData({ abi, functionName, args } as unknown as EncodeFunctionDataParameters);
}

export type ContractWriter<abi extends Abi> = <fn extends WriteFunctionName<abi>>(
  from: Address,
  functionName: fn,
  args: WriteArgs<abi, fn>,
  gas?: bigint,
) => Promise<TransactionReceipt>;

function writer<const abi extends Abi>(rpc: LotteryRpc, to: Address, abi: abi): ContractWriter<abi> {
  return (from, functionName, args, gas) => rpc.execute({ from, to, data: encodeWrite(abi, functionName, args), gas });
}

export type LotteryWriters = { [key in keyof typeof LOTTERY_ABIS]: ContractWriter<(typeof LOTTERY_ABIS)[key]> };

export function lotteryWriters(rpc: LotteryRpc, addresses: LotteryAddresses): LotteryWriters {
  return {
    usdc: writer(rpc, addresses.usdc, LOTTERY_ABIS.usdc),
    jackpot: writer(rpc, addresses.jackpot, LOTTERY_ABIS.jackpot),
    lpManager: writer(rpc, addresses.lpManager, LOTTERY_ABIS.lpManager),
    payoutCalculator: writer(rpc, addresses.payoutCalculator, LOTTERY_ABIS.payoutCalculator),
    ticketNft: writer(rpc, addresses.ticketNft, LOTTERY_ABIS.ticketNft),
    randomTicketBuyer: writer(rpc, addresses.randomTicketBuyer, LOTTERY_ABIS.randomTicketBuyer),
    dailyTicketPool: writer(rpc, addresses.dailyTicketPool, LOTTERY_ABIS.dailyTicketPool),
  };
}
