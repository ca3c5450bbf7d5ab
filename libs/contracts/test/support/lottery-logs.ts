/**
 * Reads a deployment's whole history back from the node, the way an indexer would: one eth_getLogs over all
 * lottery contracts, each log decoded with its own contract's compiled ABI.
 */
import {
  type Abi,
  type Address,
  type Hash,
  type Hex,
  createPublicClient,
  decodeEventLog,
  http,
  isAddressEqual,
} from 'viem';
import { LOTTERY_ABIS, LOTTERY_EVENT_SOURCES, type LotteryDeployment } from '../../src';

export interface DecodedLog {
  contract: (typeof LOTTERY_EVENT_SOURCES)[number];
  address: Address;
  eventName: string;
  args: Record<string, unknown>;
  blockNumber: bigint;
  transactionHash: Hash;
  logIndex: number;
}

export async function readLotteryLogs(rpcUrl: string, deployment: LotteryDeployment): Promise<DecodedLog[]> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const sources = LOTTERY_EVENT_SOURCES.map((contract) => ({ contract, address: deployment.addresses[contract] }));
  const logs = await client.getLogs({ address: sources.map((s) => s.address), fromBlock: deployment.deployBlock });
  return logs.map((log) => {
    const source = sources.find((s) => isAddressEqual(s.address, log.address));
    if (!source) throw new Error(`log from unexpected address ${log.address}`);
    const decoded = decodeEventLog({
      abi: LOTTERY_ABIS[source.contract] as Abi,
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
    });
    return {
      contract: source.contract,
      address: log.address,
      eventName: decoded.eventName ?? '',
      args: decoded.args as unknown as Record<string, unknown>,
      blockNumber: log.blockNumber,
      transactionHash: log.transactionHash,
      logIndex: log.logIndex,
    };
  });
}

export const named = (logs: readonly DecodedLog[], eventName: string): DecodedLog[] =>
  logs.filter((log) => log.eventName === eventName);

export const inTransaction = (logs: readonly DecodedLog[], hash: Hash): DecodedLog[] =>
  logs.filter((log) => log.transactionHash === hash);

/** Args as plain JSON (bigints as strings), to compare two histories value by value. */
export function comparable(logs: readonly DecodedLog[]): string[] {
  return logs.map((log) =>
    JSON.stringify({ contract: log.contract, event: log.eventName, args: log.args }, (_k, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    ),
  );
}
