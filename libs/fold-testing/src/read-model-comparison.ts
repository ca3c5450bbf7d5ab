import type { Hex } from '@lottery/domain';
import { emptyWalletStats, type ReadModelQueries, type TicketRecord } from '@lottery/persistence';
import type { ReferenceModels } from './reference-fold';
import { must } from './must';

/** Reads every page of a keyset-paginated query with a small page size, so paging itself is exercised. */
async function allPages<K>(
  limit: number,
  page: (after: K | null, limit: number) => Promise<TicketRecord[]>,
  keyOf: (t: TicketRecord) => K,
): Promise<TicketRecord[]> {
  const all: TicketRecord[] = [];
  let after: K | null = null;
  for (;;) {
    const rows = await page(after, limit);
    all.push(...rows);
    if (rows.length < limit) return all;
    after = keyOf(rows[rows.length - 1]);
  }
}

const newestFirst = (ts: TicketRecord[]) => [...ts].sort((a, b) => Number(b.id - a.id));
const isWin = (t: TicketRecord) => t.winningsAmount !== null && t.winningsAmount > 0n;
const amountOf = (t: TicketRecord) => must(t.winningsAmount, `winnings of ticket ${t.id}`);
const byAmountThenId = (a: TicketRecord, b: TicketRecord) =>
  amountOf(a) === amountOf(b) ? Number(b.id - a.id) : amountOf(b) > amountOf(a) ? 1 : -1;

/**
 * Asks the read models every question the API can ask and expects the reference answers, field by
 * field. Returns the number of queries made (so a test can show it compared something).
 */
export async function expectSameReadModels(q: ReadModelQueries, ref: ReferenceModels): Promise<number> {
  let queries = 0;
  const check = async <T>(what: string, actual: Promise<T>, expected: T) => {
    queries += 1;
    const value = await actual;
    try {
      expect(value).toEqual(expected);
    } catch (error) {
      throw new Error(`${what} differs from the reference fold\n${(error as Error).message}`);
    }
  };
  const ticketPages = (fetch: (beforeId: bigint | null, limit: number) => Promise<TicketRecord[]>) =>
    allPages<bigint>(
      4,
      (after, limit) => fetch(after, limit),
      (t) => t.id,
    );

  const newestRounds = [...ref.rounds].reverse();
  await check('listRounds', allPagesOfRounds(q), newestRounds);
  await check('activeRound', q.activeRound(), newestRounds.find((r) => r.status === 'active') ?? null);
  for (const round of ref.rounds) {
    const own = ref.tickets.filter((t) => t.roundId === round.id);
    await check(`round ${round.id}`, q.roundById(round.id), round);
    await check(
      `tickets of round ${round.id}`,
      ticketPages((beforeId, limit) => q.roundTickets(round.id, { beforeId, limit })),
      newestFirst(own),
    );
    await check(
      `wins of round ${round.id}`,
      allPages<{ amount: bigint; id: bigint }>(
        3,
        (after, limit) => q.roundWins(round.id, { after, limit }),
        (t) => ({ amount: amountOf(t), id: t.id }),
      ),
      own.filter(isWin).sort(byAmountThenId),
    );
  }
  await check('unknown round', q.roundById(999_999n), null);

  const unknown = '0x00000000000000000000000000000000000000ff' as Hex;
  for (const [address, stats] of [...ref.wallets, [unknown, undefined] as const]) {
    const own = ref.tickets.filter((t) => t.wallet === address);
    await check(`stats of ${address}`, q.walletStats(address), stats ?? emptyWalletStats(address));
    await check(
      `tickets of ${address}`,
      ticketPages((b, l) => q.walletTickets(address, null, { beforeId: b, limit: l })),
      newestFirst(own),
    );
    await check(
      `wins of ${address}`,
      ticketPages((b, l) => q.walletWins(address, null, { beforeId: b, limit: l })),
      newestFirst(own.filter(isWin)),
    );
    for (const round of ref.rounds) {
      const inRound = own.filter((t) => t.roundId === round.id);
      await check(
        `tickets of ${address} in round ${round.id}`,
        ticketPages((b, l) => q.walletTickets(address, round.id, { beforeId: b, limit: l })),
        newestFirst(inRound),
      );
      await check(
        `wins of ${address} in round ${round.id}`,
        ticketPages((b, l) => q.walletWins(address, round.id, { beforeId: b, limit: l })),
        newestFirst(inRound.filter(isWin)),
      );
    }
  }

  const newestPool = [...ref.poolRounds].reverse();
  await check('pool active round', q.poolActiveRound(), newestPool.find((r) => r.active) ?? null);
  await check('pool latest completed round', q.poolLatestCompletedRound(), newestPool.find((r) => !r.active) ?? null);
  for (const pool of ref.poolRounds) {
    const entries = ref.poolEntries.filter((e) => e.roundId === pool.roundId);
    await check(`pool round ${pool.roundId}`, q.poolRound(pool.roundId), pool);
    await check(`pool entries of ${pool.roundId}`, q.poolEntries(pool.roundId, null), entries);
    for (const address of new Set(entries.map((e) => e.address))) {
      await check(
        `pool entries of ${address} in ${pool.roundId}`,
        q.poolEntries(pool.roundId, address),
        entries.filter((e) => e.address === address),
      );
    }
  }
  await check('unknown pool round', q.poolRound(999_999n), null);
  for (const address of new Set([...ref.poolEntries.map((e) => e.address), unknown])) {
    await check(
      `pool entries of ${address}`,
      q.poolWalletEntries(address),
      ref.poolEntries.filter((e) => e.address === address),
    );
  }
  return queries;
}

async function allPagesOfRounds(q: ReadModelQueries) {
  const all = [];
  let before: bigint | null = null;
  for (;;) {
    const page = await q.listRounds(before, 2);
    all.push(...page);
    if (page.length < 2) return all;
    before = page[page.length - 1].id;
  }
}
