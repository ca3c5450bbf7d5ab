import { contractVariables } from '@lottery/chain';
import type { LotteryDeployment } from '@lottery/contracts';

/**
 * The indexer app's node, chain and contracts for a local deployment (apps/indexer/src/config.ts): what
 * every test, benchmark and suite that runs the indexer as a process gives it, beside its event log.
 */
export function indexerChainEnv(
  rpcUrl: string,
  deployment: LotteryDeployment,
  startBlock: bigint | number = deployment.deployBlock,
): NodeJS.ProcessEnv {
  const a = deployment.addresses;
  return {
    RPC_URL: rpcUrl,
    CHAIN_ID: String(deployment.chainId),
    START_BLOCK: startBlock.toString(),
    ...contractVariables(a),
  };
}
