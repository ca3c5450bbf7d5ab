import { Inject, Injectable } from '@nestjs/common';
import type { Hex } from '@lottery/domain';
import type { ReadModelQueries, RoundRecord, TicketPageQuery, TicketRecord } from '@lottery/persistence';
import { ApiError } from '../http/api-error';
import { SerializedJson } from '../http/serialized-json';
import type { WalletStatsDto } from './dto/wallet-stats.dto';
import { Cacheable, SETTLED_ROUND_CACHE, SETTLED_ROUND_TICKETS_CACHE } from './http-cache/cacheable';
import { paginate, serializedPage, type KeysetList } from './pagination';
import type { PageRequest } from './params/page-query.pipe';
import { STORED_ID_MAX } from './params/storage-bounds';
import { READ_MODEL_QUERIES } from './read-models.token';
import { formatWalletStats, roundJson, ticketJson, winJson } from './record-formatters';

/** Lists, named by their path: rounds and tickets page by id, round wins by (amount, id). */
const byId = <R extends { id: bigint }>(id: string): KeysetList<R> => ({ id, keyParts: 1, keyOf: (row) => [row.id] });
const byAmountThenId = (id: string): KeysetList<TicketRecord> => ({
  id,
  keyParts: 2,
  keyOf: (row) => [row.winningsAmount ?? 0n, row.id],
});
const walletList = (address: Hex, what: 'tickets' | 'wins', roundId: bigint | null): string =>
  `/v1/wallets/${address.toLowerCase()}/${what}${roundId === null ? '' : `/rounds/${roundId}`}`;
const ticketPage = (limit: number, after: bigint[] | null): TicketPageQuery => ({
  limit,
  beforeId: after?.[0] ?? null,
});

/** The Data API's reads: read models in, the spec's JSON out. */
@Injectable()
export class DataApiService {
  constructor(@Inject(READ_MODEL_QUERIES) private readonly readModels: ReadModelQueries) {}

  // Rounds leave as JSON text kept per round record (roundJson): a page of rounds is mostly prize tiers
  // and amounts that no longer change. Tickets and wins are written as JSON text row by row.

  async activeRound(): Promise<SerializedJson> {
    const round = await this.readModels.activeRound();
    // The spec's chosen signal for "no round is open or drawing" (e.g. between settlement and the next round).
    if (!round) throw new ApiError('upstream_unavailable', 'no active round could be found', { 'Retry-After': '1' });
    return new SerializedJson(roundJson(round));
  }

  async rounds(page: PageRequest): Promise<SerializedJson> {
    const fetch = (limit: number, after: bigint[] | null) => this.readModels.listRounds(after?.[0] ?? null, limit);
    return serializedPage(await paginate(page, byId<RoundRecord>('/v1/rounds'), fetch, roundJson));
  }

  async round(id: bigint): Promise<Cacheable<SerializedJson>> {
    const round = await this.existingRound(id);
    return new Cacheable(new SerializedJson(roundJson(round)), settled(round, SETTLED_ROUND_CACHE));
  }

  // The round's row is read before the page, not beside it: the two statements see the read models at
  // different moments, and only a page read after the round was seen settled may be cached as settled
  // (one read beside it could predate the settlement's commit: tickets without their outcome, for a minute).

  async roundTickets(id: bigint, page: PageRequest): Promise<Cacheable<SerializedJson>> {
    const round = await this.existingRound(id);
    const list = await paginate(
      page,
      byId<TicketRecord>(`/v1/rounds/${id}/tickets`),
      (limit, after) => this.readModels.roundTickets(id, ticketPage(limit, after)),
      ticketJson,
    );
    return new Cacheable(serializedPage(list), settled(round, SETTLED_ROUND_TICKETS_CACHE));
  }

  async roundWins(id: bigint, page: PageRequest): Promise<Cacheable<SerializedJson>> {
    const round = await this.existingRound(id);
    const list = await paginate(
      page,
      byAmountThenId(`/v1/rounds/${id}/wins`),
      (limit, after) => this.readModels.roundWins(id, { limit, after: after && { amount: after[0], id: after[1] } }),
      winJson,
    );
    return new Cacheable(serializedPage(list), settled(round, SETTLED_ROUND_TICKETS_CACHE));
  }

  async walletStats(address: Hex): Promise<WalletStatsDto> {
    // The read model answers zeros and null timestamps for a wallet it has never seen (spec).
    return formatWalletStats(await this.readModels.walletStats(address));
  }

  async walletTickets(address: Hex, roundId: bigint | null, page: PageRequest): Promise<SerializedJson> {
    const [, list] = await settledInArgumentOrder(
      roundId === null ? null : this.existingRound(roundId),
      paginate(
        page,
        byId<TicketRecord>(walletList(address, 'tickets', roundId)),
        (limit, after) => this.readModels.walletTickets(address, roundId, ticketPage(limit, after)),
        ticketJson,
      ),
    );
    return serializedPage(list);
  }

  async walletWins(address: Hex, roundId: bigint | null, page: PageRequest): Promise<SerializedJson> {
    const [, list] = await settledInArgumentOrder(
      roundId === null ? null : this.existingRound(roundId),
      paginate(
        page,
        byId<TicketRecord>(walletList(address, 'wins', roundId)),
        (limit, after) => this.readModels.walletWins(address, roundId, ticketPage(limit, after)),
        winJson,
      ),
    );
    return serializedPage(list);
  }

  /** Round-scoped endpoints answer 404 for a round that does not exist, rather than an empty list. */
  private async existingRound(id: bigint): Promise<RoundRecord> {
    const round = id > STORED_ID_MAX ? null : await this.readModels.roundById(id);
    if (!round) throw new ApiError('not_found', `round ${id} does not exist`);
    return round;
  }
}

function settled(round: RoundRecord, cacheControl: string): string | null {
  return round.status === 'settled' ? cacheControl : null;
}

/**
 * Both, run together; when both fail, the first one's error. A wallet's round-scoped list checks its
 * round beside its page (one round trip, not two), and still answers a missing round 404 before a bad
 * cursor 400, as the round's own lists do, whichever query fails first.
 */
async function settledInArgumentOrder<A, B>(first: Promise<A> | A, second: Promise<B>): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return [a.value, b.value];
}
