import type { DrawnTicket, FoldWrites, StoredTicket, TicketOutcome } from '@lottery/persistence';
import { withDerived } from './round-rules';
import type { SegmentState } from './segment-state';

const hasOutcome = (t: DrawnTicket): t is DrawnTicket & { outcome: TicketOutcome } => t.outcome !== null;

/** Writes a folded segment: one multi-row statement (or COPY) per table. */
export async function flushSegment(writes: FoldWrites, state: SegmentState): Promise<void> {
  const isNew = new Set<StoredTicket>(state.newTickets);
  await writes.insertChainEvents(state.chainEvents);
  await writes.insertAppliedBlocks(state.appliedBlocks);
  await writes.insertReferralSchemes(state.newSchemes);
  await writes.upsertRounds(state.changedRoundModels().map(withDerived));
  await writes.insertTickets(state.newTickets);
  // a ticket drawn in this segment gets its outcome row with its claim, if any, already in it
  await writes.insertOutcomes([...state.drawn].filter(hasOutcome));
  await writes.updateClaims([...state.claimed].filter((t) => !state.drawn.has(t)));
  await writes.updateBuyers([...state.buyerArrived].filter((t) => !isNew.has(t)));
  await writes.applyWalletDeltas(state.wallets.list());
  await writes.insertPoolEntries(state.poolEntries);
  await writes.addPoolEntryCounts(state.poolEntryCounts);
  await writes.insertPoolTransactions(state.poolTransactions);
  await writes.insertPoolWinners(state.poolWinners);
}
