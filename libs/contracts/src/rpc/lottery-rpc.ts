/**
 * The one way the deployer and the simulator talk to the node: viem clients plus a transaction sender for
 * node-managed accounts (anvil's dev accounts and impersonated wallets), which skips viem's local signing and
 * fee preparation, and turns a revert into an error that names the custom error.
 */
import {
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
  type TestClient,
  type TransactionReceipt,
  type WalletClient,
  BaseError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  http,
} from 'viem';
import { lotteryErrorsAbi } from '../lottery-abis';

export interface TxRequest {
  from: Address;
  /** Unset: a contract creation. */
  to?: Address;
  data: Hex;
  /** Unset: estimated (execute pads the estimate; send leaves it to the node). */
  gas?: bigint;
}

export interface LotteryRpc {
  rpcUrl: string;
  chainId: number;
  publicClient: PublicClient;
  /** Node-managed accounts: eth_accounts, eth_sendTransaction. */
  walletClient: WalletClient;
  /** anvil_* / evm_* methods (time travel, balances, impersonation, mining control). */
  testClient: TestClient<'anvil'>;
  /** Sends and returns the hash without waiting (bulk mode mines many per block). */
  send(request: TxRequest): Promise<Hash>;
  /** Sends, waits for the receipt and throws if the transaction reverted. */
  execute(request: TxRequest): Promise<TransactionReceipt>;
  receipt(hash: Hash): Promise<TransactionReceipt>;
}

const toQuantity = (value: bigint): Hex => `0x${value.toString(16)}`;

/** Names the custom error inside a failed eth_sendTransaction / eth_estimateGas, when there is one. */
function describeRevert(error: unknown): string {
  if (!(error instanceof BaseError)) return error instanceof Error ? error.message : String(error);
  const data = /0x[0-9a-fA-F]{8,}/.exec(error.details ?? error.shortMessage)?.[0] as Hex | undefined;
  if (data) {
    try {
      const decoded = decodeErrorResult({ abi: lotteryErrorsAbi, data });
      return `${decoded.errorName}(${(decoded.args ?? []).map(String).join(', ')})`;
    } catch {
      // Not one of ours (e.g. a panic code): fall back to the node's message.
    }
  }
  return error.shortMessage;
}

export interface LotteryRpcOptions {
  /**
   * How long to wait for a sent transaction's receipt (default viem's 180 s). A chain that reorgs can
   * make a transaction vanish: the wait then only ends with this timeout.
   */
  receiptTimeoutMs?: number;
}

export async function connectLotteryRpc(rpcUrl: string, options: LotteryRpcOptions = {}): Promise<LotteryRpc> {
  const transport = http(rpcUrl, { retryCount: 0, timeout: 60_000 });
  const publicClient = createPublicClient({ transport, pollingInterval: 50 });
  const testClient = createTestClient({ mode: 'anvil', transport });
  const walletClient = createWalletClient({ transport });
  const chainId = await publicClient.getChainId();

  const send = async (request: TxRequest): Promise<Hash> => {
    try {
      return await walletClient.request({
        method: 'eth_sendTransaction',
        params: [
          {
            from: request.from,
            to: request.to,
            data: request.data,
            gas: request.gas === undefined ? undefined : toQuantity(request.gas),
          },
        ],
      });
    } catch (error) {
      throw new Error(
        `transaction from ${request.from} to ${request.to ?? 'new contract'} failed: ${describeRevert(error)}`,
      );
    }
  };

  const receipt = async (hash: Hash): Promise<TransactionReceipt> => {
    // With automine the receipt exists as soon as eth_sendTransaction returns; poll only with interval mining.
    const immediate = await publicClient.getTransactionReceipt({ hash }).catch(() => undefined);
    return (
      immediate ??
      publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: options.receiptTimeoutMs })
    );
  };

  // The node's estimate is exact for the block it simulates, but the transaction is mined in the next one,
  // whose timestamp may be a second later: an SSTORE of block.timestamp over an equal stored value (a wallet
  // entering the new drawing's pool in the chain second of its last-minute entry in the previous one) is then a
  // full write, not a no-op, and the exact estimate runs out of gas (~1 history in 10 failed that way). Pad it as wallets do (anvil charges only the gas used). A failed estimate
  // leaves the gas unset, so the node reports the revert on send as before.
  const paddedGas = async (request: TxRequest): Promise<bigint | undefined> => {
    if (request.gas !== undefined) return request.gas;
    const estimate = await publicClient
      .estimateGas({ account: request.from, to: request.to, data: request.data })
      .catch(() => undefined);
    return estimate === undefined ? undefined : estimate + estimate / 5n + 10_000n;
  };

  const execute = async (request: TxRequest): Promise<TransactionReceipt> => {
    const gas = await paddedGas(request);
    const mined = await receipt(await send({ ...request, gas }));
    if (mined.status === 'success') return mined;
    // Replay it on the parent block's state to learn why (exact with a block per transaction).
    const why = await publicClient
      .call({ account: request.from, to: request.to, data: request.data, blockNumber: mined.blockNumber - 1n })
      .then(() => 'no revert on replay (out of gas?)', describeRevert);
    throw new Error(`transaction ${mined.transactionHash} reverted: ${why}`);
  };

  return { rpcUrl, chainId, publicClient, walletClient, testClient, send, execute, receipt };
}
