import { createPublicClient, http } from 'viem';
import { jackpotAbi, type LotteryDeployment } from '@lottery/contracts';
import type { ReadModelQueries } from '@lottery/persistence';

/**
 * What the read models say against what the contract holds, for each round: the open round, and each
 * round's ticket count and prize pool (what a reorg of purchases and settlements moves back and forth).
 * Mining must be paused. Returns one line per disagreement.
 */
export async function chainDisagreements(
  rpcUrl: string,
  deployment: LotteryDeployment,
  queries: ReadModelQueries,
): Promise<string[]> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const jackpot = { address: deployment.addresses.jackpot, abi: jackpotAbi } as const;
  const current = await client.readContract({ ...jackpot, functionName: 'currentDrawingId' });
  const disagreements: string[] = [];
  const active = (await queries.activeRound())?.id ?? null;
  if (active !== current) disagreements.push(`active round ${active}, contract's current drawing ${current}`);
  for (let id = 1n; id <= current; id++) {
    const state = await client.readContract({ ...jackpot, functionName: 'getDrawingState', args: [id] });
    const round = await queries.roundById(id);
    const modelled = { tickets: round?.ticketCount, prizePool: round?.prizePool };
    const onChain = { tickets: Number(state.globalTicketsBought), prizePool: state.prizePool };
    if (modelled.tickets !== onChain.tickets || modelled.prizePool !== onChain.prizePool)
      disagreements.push(
        `round ${id}: ${modelled.tickets} tickets, prize pool ${modelled.prizePool}; ` +
          `contract: ${onChain.tickets}, ${onChain.prizePool}`,
      );
  }
  return disagreements;
}
