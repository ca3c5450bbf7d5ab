import type { Hex } from '@lottery/domain';
import type {
  ChainEventRow,
  FoldReadsPort,
  PoolEntryModel,
  PoolTransactionModel,
  PoolWinnerModel,
  ReferralSchemeModel,
  DrawnTicket,
  RoundModel,
  StoredTicket,
  TicketModel,
} from '@lottery/persistence';
import type { DecodedChainEvent } from '../decode/decoded-event';
import type { OpenRoundKeys } from './open-round-keys';
import { WalletDeltas } from './wallet-rules';

/**
 * Everything one run of events between two reverts reads and changes, held in memory so the events
 * fold without a round trip each and the results are written with one statement per table. Loaded
 * up front with one query per kind of state the events reference.
 */
export class SegmentState {
  readonly rounds = new Map<bigint, RoundModel>();
  readonly changedRounds = new Set<bigint>();
  /** Identity map by user ticket id: loaded rows and tickets bought in this segment. */
  readonly tickets = new Map<bigint, StoredTicket>();
  /** The loaded rows again, by ticket id: a draw reading its round's tickets finds these among them. */
  private readonly loadedById = new Map<bigint, StoredTicket>();
  readonly newTickets: TicketModel[] = [];
  readonly newTicketsByRound = new Map<bigint, TicketModel[]>();
  /** Tickets whose drawing was drawn in this segment (their outcome rows are new). */
  readonly drawn = new Set<DrawnTicket>();
  readonly claimed = new Set<StoredTicket>();
  /** Stored tickets whose TicketOrderProcessed arrived in this segment. */
  readonly buyerArrived = new Set<StoredTicket>();
  /** Tickets of a purchase transaction whose TicketOrderProcessed (carrying the buyer) is still to come. */
  readonly awaitingBuyer = new Map<Hex, StoredTicket[]>();
  readonly schemes = new Map<Hex, ReferralSchemeModel>();
  readonly newSchemes: ReferralSchemeModel[] = [];
  readonly wallets = new WalletDeltas();
  readonly poolEntries: PoolEntryModel[] = [];
  readonly poolEntryCounts = new Map<bigint, number>();
  readonly poolTransactions: PoolTransactionModel[] = [];
  readonly poolWinners: PoolWinnerModel[] = [];
  /** The pool entries this segment's winners may name: those it entered, and the stored ones they name. */
  readonly knownPoolEntries = new Map<bigint, { roundId: bigint; address: Hex }>();
  readonly chainEvents: ChainEventRow[] = [];
  /** The hash of every block this segment folded within the reorg window. */
  readonly appliedBlocks = new Map<number, Hex>();

  private constructor(
    readonly roundKeys: OpenRoundKeys,
    public nextTicketId: bigint,
    public nextPoolTransactionId: bigint,
  ) {}

  static async load(
    reads: FoldReadsPort,
    events: readonly DecodedChainEvent[],
    keys: OpenRoundKeys,
  ): Promise<SegmentState> {
    const roundIds = new Set<bigint>();
    const ticketRounds = new Set<bigint>();
    const claimedIds: bigint[] = [];
    const bought = new Set<bigint>();
    const schemeIds = new Set<Hex>();
    const poolWinnerEntries: bigint[] = [];
    const entered = new Set<bigint>();
    for (const { body } of events) {
      if (body.type === 'PoolWinnerSelected') poolWinnerEntries.push(body.entryId);
      if (body.type === 'PoolEntered') entered.add(body.entryId);
      if ('roundId' in body) roundIds.add(body.roundId);
      if (body.type === 'TicketWinningsClaimed') claimedIds.push(body.userTicketId);
      if (body.type === 'TicketPurchased') {
        bought.add(body.userTicketId);
        ticketRounds.add(body.roundId);
        if (body.referralScheme) schemeIds.add(body.referralScheme);
      }
    }
    const ids = await reads.nextIds();
    const rounds = await reads.rounds([...roundIds]);
    // a ticket bought in this segment is not stored yet (were it, its purchase is a duplicate, which the
    // tickets' unique index refuses when the segment is written, or a failing claim of it finds first:
    // SegmentFold.blameRepurchase)
    const claimedTickets = await reads.ticketsByUserTicketId(claimedIds.filter((id) => !bought.has(id)));
    const awaiting = await reads.ticketsAwaitingBuyer();
    const state = new SegmentState(keys, ids.ticketId, ids.poolTransactionId);
    for (const r of rounds) state.rounds.set(r.id, r);
    for (const t of claimedTickets) {
      state.loaded(t);
      // a claim removes the ticket's pending referral share from its referrers: their scheme is needed
      if (t.referralScheme) schemeIds.add(t.referralScheme);
    }
    for (const t of awaiting) state.awaitBuyer(state.loaded(t));
    for (const s of await reads.referralSchemes([...schemeIds])) state.schemes.set(s.schemeId, s);
    // an entry this segment makes is known once folded: only the stored ones are read (a replay's read
    // waits for its queued writes)
    for (const entry of await reads.poolEntries(poolWinnerEntries.filter((id) => !entered.has(id)))) {
      state.knownPoolEntries.set(entry.entryId, { roundId: entry.roundId, address: entry.address });
    }
    // only rounds that exist take tickets; an unknown one is poison, reported when its ticket is folded
    await keys.load(
      reads,
      [...ticketRounds].filter((id) => state.rounds.has(id)),
    );
    return state;
  }

  /** The segment's instance of a stored ticket (so two loads never diverge). */
  loaded(row: StoredTicket): StoredTicket {
    const known = this.tickets.get(row.userTicketId);
    if (known) return known;
    this.tickets.set(row.userTicketId, row);
    this.loadedById.set(row.id, row);
    return row;
  }

  /** The segment's instance of a stored ticket, if it loaded that ticket already (a claim or a late buyer). */
  loadedTicket(id: bigint): StoredTicket | undefined {
    return this.loadedById.get(id);
  }

  addTicket(ticket: TicketModel): void {
    this.tickets.set(ticket.userTicketId, ticket);
    this.newTickets.push(ticket);
    const ofRound = this.newTicketsByRound.get(ticket.roundId);
    if (ofRound) ofRound.push(ticket);
    else this.newTicketsByRound.set(ticket.roundId, [ticket]);
    this.awaitBuyer(ticket);
  }

  private awaitBuyer(ticket: StoredTicket): void {
    const ofTx = this.awaitingBuyer.get(ticket.txHash);
    if (ofTx) ofTx.push(ticket);
    else this.awaitingBuyer.set(ticket.txHash, [ticket]);
  }

  roundChanged(round: RoundModel): void {
    this.changedRounds.add(round.id);
  }

  /** The rounds this segment changed, as it left them. */
  changedRoundModels(): RoundModel[] {
    return [...this.changedRounds].map((id) => {
      const round = this.rounds.get(id);
      // every round is loaded into the segment before a rule may change it
      if (!round) throw new Error(`projector bug: round ${id} was changed without being loaded into the segment`);
      return round;
    });
  }

  /** Schemes named by these tickets that are not in memory yet. */
  async loadSchemesOf(reads: FoldReadsPort, tickets: readonly Pick<DrawnTicket, 'referralScheme'>[]): Promise<void> {
    const missing = new Set<Hex>();
    for (const t of tickets) if (t.referralScheme && !this.schemes.has(t.referralScheme)) missing.add(t.referralScheme);
    for (const s of await reads.referralSchemes([...missing])) this.schemes.set(s.schemeId, s);
  }
}
