import type { ProjectionStore, RoundModel, StoredTicket } from '@lottery/persistence';
import { decodeRecord } from '../decode/decode-event';
import type { DecodedChainEvent } from '../decode/decoded-event';
import { withDerived } from '../fold/round-rules';
import { referralSplits } from '../fold/ticket-rules';
import { recomputeWallets } from './recompute-wallets';
import { RevertPlan } from './revert-plan';

/**
 * Undoes every applied block at or above `fromBlock`: the rows those blocks' events created are
 * deleted, what they changed on older rows is reset, and only the rounds and wallets they touched are
 * recomputed from the rows that remain. Returns false when nothing at or above the block was applied.
 */
export async function undoBlocksFrom(store: ProjectionStore, fromBlock: number, chainId: number): Promise<boolean> {
  const rows = await store.revert.chainEventsFrom(fromBlock);
  // These events passed the decoder when they were applied; decoding again cannot fail.
  const events = rows.map((r) => decodeRecord({ position: null, event: r.event }, chainId) as DecodedChainEvent);
  const plan = RevertPlan.of(events, fromBlock);
  // The tickets of those blocks are their own record (chain_events leaves them out): deleted first, so
  // the plan knows them before older tickets are reset.
  const bought = await store.revert.deleteTicketsFrom(fromBlock);
  if (rows.length === 0 && bought.length === 0) return false;
  for (const ticket of bought) plan.ticketDeleted(ticket);
  await resetOlderTickets(store, plan);

  await store.revert.deleteRounds(plan.openedRounds);
  await recomputeRounds(store, plan);
  await store.revert.deleteReferralSchemesFrom(fromBlock);
  await store.revert.recountPoolEntries(await store.revert.deletePoolRowsFrom(fromBlock, plan.poolEntries));
  await recomputeWallets(store, [...plan.wallets], plan.referralFees);
  await store.revert.deleteChainEventsFrom(fromBlock);
  return true;
}

/**
 * Older tickets the reverted blocks changed: claims are undone (the referral share is owed again) and
 * draws are undone (the drawing's outcome rows go). Their wallets and the referrers of their schemes
 * are recomputed afterwards.
 */
async function resetOlderTickets(store: ProjectionStore, plan: RevertPlan): Promise<void> {
  const unclaimed = await store.reads.ticketsByUserTicketId(plan.claimedTickets.filter((id) => !plan.isBought(id)));
  const undrawn: StoredTicket[] = [];
  for (const roundId of plan.undrawnRounds) undrawn.push(...(await store.reads.ticketsOfRound(roundId)));
  const touched = [...unclaimed, ...undrawn].filter((t) => !plan.isBought(t.userTicketId));
  const schemeIds = new Set(touched.flatMap((t) => (t.referralScheme ? [t.referralScheme] : [])));
  const schemes = new Map((await store.reads.referralSchemes([...schemeIds])).map((s) => [s.schemeId, s]));
  for (const t of touched) {
    plan.wallets.add(t.wallet);
    const scheme = t.referralScheme ? schemes.get(t.referralScheme) : undefined;
    if (scheme && t.outcome) {
      for (const [referrer] of referralSplits(t.outcome.referralShare, scheme)) plan.wallets.add(referrer);
    }
  }
  for (const t of unclaimed) t.claimedTxHash = null;
  await store.writes.updateClaims(unclaimed);
  await store.revert.deleteOutcomesOfRounds(plan.undrawnRounds);
}

async function recomputeRounds(store: ProjectionStore, plan: RevertPlan): Promise<void> {
  const ids = [...plan.rounds].filter((id) => !plan.openedRounds.includes(id));
  const tallies = new Map((await store.revert.roundTicketTallies(ids)).map((t) => [t.roundId, t]));
  const rounds: RoundModel[] = [];
  for (const stored of await store.reads.rounds(ids)) {
    const round = plan.undo(stored);
    const tally = tallies.get(round.id);
    if (!tally) throw new Error(`no ticket tally for round ${round.id}`);
    rounds.push(
      withDerived({
        ...round,
        ticketCount: tally.ticketCount,
        uniqueParticipants: tally.uniqueParticipants,
        duplicateTickets: tally.ticketCount - tally.distinctNumbers,
        tierTicketCounts: round.drawnBlock === null ? null : tally.tierCounts,
      }),
    );
  }
  await store.writes.upsertRounds(rounds);
}
