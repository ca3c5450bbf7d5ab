import { type LotteryRpc, retrying, type RetryLogger } from '@lottery/chain';
import { BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError } from 'viem';
import type { ConfiguredContract } from './config';

/**
 * Refuses, before anything is appended, a configuration whose contracts are not on this chain: an
 * address without code emits nothing (the log would stay empty, silently), and a JACKPOT_ADDRESS that
 * is another contract would store its NewDrawingInitialized without the drawing's facts. Transport
 * failures are retried; what the chain answers decides.
 */
export async function checkContracts(
  rpc: LotteryRpc,
  contracts: readonly ConfiguredContract[],
  options: { logger: RetryLogger; signal: AbortSignal },
): Promise<void> {
  const problems: string[] = [];
  for (const { variable, address } of contracts) {
    const code = await retrying(() => rpc.client.getCode({ address }), { ...options, what: `code of ${variable}` });
    if (code === undefined || code === '0x') problems.push(`${variable} ${address} has no contract code on this chain`);
  }
  const jackpot = contracts.find((c) => c.variable === 'JACKPOT_ADDRESS');
  if (jackpot && problems.length === 0) {
    const head = await retrying(() => rpc.headNumber(), { ...options, what: 'eth_blockNumber' });
    const answers = await retrying(
      () =>
        rpc.currentDrawingId(jackpot.address, head).then(
          () => true,
          (error: unknown) => (isContractAnswer(error) ? false : Promise.reject(error)),
        ),
      { ...options, what: 'currentDrawingId()' },
    );
    if (!answers) {
      problems.push(`JACKPOT_ADDRESS ${jackpot.address} does not answer currentDrawingId(): not the lottery's Jackpot`);
    }
  }
  if (problems.length > 0)
    throw new Error(`indexer: the configured contracts are wrong\n  - ${problems.join('\n  - ')}`);
}

/** The contract itself answered no (a revert, or no such function: no data), as opposed to a transport failure. */
function isContractAnswer(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError) !== null
  );
}
