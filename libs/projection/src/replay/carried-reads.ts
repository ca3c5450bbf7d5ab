import type { Hex } from '@lottery/domain';
import type {
  DrawnTicket,
  FoldReadsPort,
  ProjectorCursor,
  ReferralSchemeModel,
  RoundModel,
  StoredTicket,
  TicketToDraw,
} from '@lottery/persistence';
import type { SegmentState } from '../fold/segment-state';
import { numbersCode } from '../fold/ticket-rules';

/** A ticket as memory holds it: whole (a draw and a later claim change it in place), with its numbers' code. */
type HeldTicket = StoredTicket & TicketToDraw;

const isStored = (t: DrawnTicket): t is StoredTicket => 'userTicketId' in t;

/**
 * Memory keeps drawn tickets only while they may still be claimed for money: a claim of a losing ticket
 * (the contract allows it, paying nothing) is rare, and finds its ticket in the schema instead.
 */
const isClaimable = (t: DrawnTicket): boolean =>
  t.outcome !== null && t.claimedTxHash === null && (t.outcome.winningsAmount > 0n || t.outcome.referralShare > 0n);

/**
 * The state a replay's fold reads, carried in memory from batch to batch instead of read back from what
 * the previous batches wrote: the replay writes behind its fold (WriteBehind), and a read of the schema
 * would have to wait for those writes. Memory holds every round and referral scheme, every ticket of the
 * drawings not drawn yet (a draw reads them all, and a claim in the batch that draws it names one), the
 * tickets still waiting for their buyer, and the winning tickets drawn during the replay and not claimed
 * yet. A claim of a ticket memory does not hold reads the schema, after the queued writes (`schema` reads
 * through the write-behind's `direct`): a winner drawn before a reorg's undo, which memory reloads
 * without them.
 *
 * Its memory grows with the tickets of the open drawings, which the live projector's OpenRoundKeys holds
 * the numbers of too, and with the unclaimed winners: of these it keeps the newest `maxHeldTickets`, and
 * a claim of an older one reads the schema.
 */
export class CarriedReads implements FoldReadsPort {
  private readonly roundsById = new Map<bigint, RoundModel>();
  private readonly schemesById = new Map<Hex, ReferralSchemeModel>();
  private readonly undrawn = new Map<bigint, HeldTicket[]>();
  /** By user ticket id, what a claim may name: the undrawn tickets and the unclaimed winners. */
  private readonly claimable = new Map<bigint, StoredTicket>();
  private awaiting: StoredTicket[] = [];

  private constructor(
    private readonly schema: FoldReadsPort,
    private readonly maxHeldTickets: number,
    private readonly position: ProjectorCursor,
    private next: { ticketId: bigint; poolTransactionId: bigint },
  ) {}

  /** Everything memory holds, read from the schema (empty when a replay starts; again after a reorg's undo). */
  static async load(schema: FoldReadsPort, maxHeldTickets: number): Promise<CarriedReads> {
    const reads = new CarriedReads(schema, maxHeldTickets, await schema.cursor(), await schema.nextIds());
    for (const round of await schema.everyRound()) {
      reads.roundsById.set(round.id, round);
      if (round.drawnBlock !== null) continue;
      const tickets = (await schema.ticketsOfRound(round.id)).map((t) => ({ ...t, numbersCode: numbersCode(t) }));
      reads.undrawn.set(round.id, tickets);
      for (const ticket of tickets) reads.claimable.set(ticket.userTicketId, ticket);
    }
    for (const scheme of await schema.everyReferralScheme()) reads.schemesById.set(scheme.schemeId, scheme);
    const byId = new Map([...reads.undrawn.values()].flat().map((t) => [t.id, t]));
    reads.awaiting = (await schema.ticketsAwaitingBuyer()).map((t) => byId.get(t.id) ?? t);
    return reads;
  }

  /** What a folded segment changed, so the next batch reads it from here. */
  folded(state: SegmentState): void {
    this.next = { ticketId: state.nextTicketId, poolTransactionId: state.nextPoolTransactionId };
    // the stored scheme is the first announcement (a repeat changes nothing, as in the schema)
    for (const scheme of state.newSchemes)
      if (!this.schemesById.has(scheme.schemeId)) this.schemesById.set(scheme.schemeId, scheme);
    for (const ticket of state.newTickets) {
      const ofRound = this.undrawn.get(ticket.roundId);
      if (ofRound) ofRound.push(ticket);
      else this.undrawn.set(ticket.roundId, [ticket]);
      this.claimable.set(ticket.userTicketId, ticket);
    }
    for (const round of state.changedRoundModels()) {
      this.roundsById.set(round.id, round);
      if (round.drawnBlock !== null) this.undrawn.delete(round.id);
    }
    for (const ticket of state.drawn) {
      if (isStored(ticket) && !isClaimable(ticket)) this.claimable.delete(ticket.userTicketId);
    }
    for (const ticket of state.claimed) this.claimable.delete(ticket.userTicketId);
    this.awaiting = [...state.awaitingBuyer.values()].flat();
    // a Map iterates in insertion order: the tickets bought longest ago go first
    for (const id of this.claimable.keys()) {
      if (this.claimable.size <= this.maxHeldTickets) break;
      this.claimable.delete(id);
    }
  }

  /** No other writer touches a replay's schema before it is promoted: nothing to wait for. */
  lockSchema(): Promise<void> {
    return Promise.resolve();
  }

  /** The cursor itself: the batch moves it forward in place and queues its write. */
  async cursor(): Promise<ProjectorCursor> {
    return this.position;
  }

  async nextIds(): Promise<{ ticketId: bigint; poolTransactionId: bigint }> {
    return this.next;
  }

  async rounds(ids: readonly bigint[]): Promise<RoundModel[]> {
    return ids.flatMap((id) => this.roundsById.get(id) ?? []);
  }

  async everyRound(): Promise<RoundModel[]> {
    return [...this.roundsById.values()];
  }

  async roundTicketKeys(roundId: bigint): Promise<{ numbersCodes: number[]; wallets: Hex[] }> {
    const tickets = this.undrawn.get(roundId) ?? [];
    return { numbersCodes: tickets.map((t) => t.numbersCode), wallets: tickets.map((t) => t.wallet) };
  }

  async ticketsByUserTicketId(userTicketIds: readonly bigint[]): Promise<StoredTicket[]> {
    const held: StoredTicket[] = [];
    const missing: bigint[] = [];
    for (const id of userTicketIds) {
      const ticket = this.claimable.get(id);
      if (ticket) held.push(ticket);
      else missing.push(id);
    }
    return missing.length === 0 ? held : [...held, ...(await this.schema.ticketsByUserTicketId(missing))];
  }

  async ticketsToDraw(roundId: bigint): Promise<TicketToDraw[]> {
    return this.undrawn.get(roundId) ?? [];
  }

  ticketsOfRound(roundId: bigint): Promise<StoredTicket[]> {
    return this.schema.ticketsOfRound(roundId);
  }

  async ticketsAwaitingBuyer(): Promise<StoredTicket[]> {
    return this.awaiting;
  }

  /** Not carried: only an event the log delivers again, behind the fold's position, asks. */
  appliedBlockHashes(blockNumbers: readonly number[]): Promise<Map<number, Hex>> {
    return this.schema.appliedBlockHashes(blockNumbers);
  }

  /** Not carried: a pool winner, once a drawing, reads its entry from the schema. */
  poolEntries(entryIds: readonly bigint[]): Promise<{ entryId: bigint; roundId: bigint; address: Hex }[]> {
    return this.schema.poolEntries(entryIds);
  }

  async referralSchemes(ids: readonly Hex[]): Promise<ReferralSchemeModel[]> {
    return ids.flatMap((id) => this.schemesById.get(id) ?? []);
  }

  async everyReferralScheme(): Promise<ReferralSchemeModel[]> {
    return [...this.schemesById.values()];
  }
}
