import { createSimulationContext } from '@lottery/contracts';
import { checksumAddress, FRACTION_SCALE } from '@lottery/domain';
import { buildProjectedLottery, type ProjectedLottery } from '@lottery/pipeline-testing';
import { OpenApiValidator } from './support/openapi-validator';
import {
  drawingState,
  drawingTierPayouts,
  readLotteryChain,
  ticketInfo,
  unpackTicketNumbers,
  unpackWinningTicket,
  type LotteryChainReads,
  type TicketOnChain,
} from './support/lottery-chain-reads';
import { StubApiKeys } from './support/stub-api-keys';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The API on read models built the production way: a seeded history on anvil (3 settled rounds of ~100
 * tickets, claims, transfers, referrals, LPs, daily pool entries and winners, and an open round with sales),
 * the real chain follower into a Postgres event log, the real projection into the read-model schema, and
 * PostgresReadModelQueries under the app. Every /v1 response is validated against the served OpenAPI
 * document (test-app), every pool response against /api/v1/openapi.json; values are checked for internal
 * consistency, against what the simulator reports doing, and against the contracts read directly.
 */
jest.setTimeout(120_000);

const SEED = 'api-projected-read-models';
const ROUNDS = 3;
const TICKETS_PER_ROUND = 100;
const POOL_TICKETS_PER_ROUND = 3;
/** Added to the open round after the history: pool entrants (players of the history) and pool tickets. */
const OPEN_ROUND_ENTRANTS = 4;
const OPEN_ROUND_POOL_TICKETS = 2n;
const PAGE = 7;
const KEY = 'lt_live_' + 'E'.repeat(22);
const POOL = '/api/v1/daily-ticket-pool';
const SIX_HOURS_MS = 6 * 3600 * 1000;
const USDC_DECIMALS = 6;

interface Amount {
  amount: string;
  decimals: number;
}
interface PrizeTier {
  tier_id: number;
  normal_matches: number;
  bonusball_match: boolean;
  payout: Amount;
  ticket_count: number;
}
interface Round {
  id: string;
  status: 'active' | 'settled';
  prize_pool: Amount;
  ticket_count: number;
  unique_participants: number;
  winners_count: number;
  top_prize_amount: Amount | null;
  top_prize_winners_count: number;
  lp_earnings: Amount;
  started_at: string | null;
  ended_at: string | null;
  settled_at: string | null;
  ball_pool: { normals_max: number; bonusball_max: number };
  winning_numbers: { normals: number[]; bonusball: number } | null;
  prize_tiers: PrizeTier[] | null;
}
interface TicketBase {
  id: string;
  wallet: string;
  buyer: string;
  round_id: string;
  user_ticket_id: string;
  normals: number[];
  bonusball: number;
  claimed: boolean;
  claimed_tx_hash: string | null;
  tx_hash: string;
  block_number: number;
  created_at: string;
}
interface Ticket extends TicketBase {
  matched_normals: number | null;
  bonusball_match: boolean | null;
  winnings_amount: Amount | null;
}
interface Win extends TicketBase {
  matched_normals: number;
  bonusball_match: boolean;
  amount: Amount;
}
interface WalletStats {
  address: string;
  total_tickets: number;
  total_wins: number;
  total_winnings: Amount;
  total_spent: Amount;
  total_referral_earnings: Amount;
  rounds_played: number;
  first_seen_at: string | null;
  last_seen_at: string | null;
}
interface Page<T> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
}
interface Walked<T> {
  items: T[];
  pages: Page<T>[];
}
interface PoolEntry {
  id: number;
  address: string;
  timestamp: string;
}
interface PoolRoundView {
  roundId: number;
  transaction: { id: number; transactionHash: string; blockNumber: number; timestamp: string } | null;
  entries: PoolEntry[];
  totalEntries: number;
  winner?: PoolEntry | null;
}

const usdc = (amount: bigint): Amount => ({ amount: amount.toString(), decimals: USDC_DECIMALS });
const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n);
const byIdDesc = (a: { id: string }, b: { id: string }) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1);
const sorted = (numbers: readonly number[]) => [...numbers].sort((a, b) => a - b);
/** A Win is the Ticket with winnings_amount renamed amount (never null). */
const asWin = ({ winnings_amount, ...ticket }: Ticket): Win =>
  ({ ...ticket, amount: winnings_amount as Amount }) as Win;
const isWinning = (t: Ticket) => t.winnings_amount !== null && BigInt(t.winnings_amount.amount) > 0n;

describe('the API on read models projected from a simulated chain history', () => {
  let lottery: ProjectedLottery;
  let chain: LotteryChainReads;
  let api: TestApp;
  let poolValidator: OpenApiValidator;
  let requests = 0;

  // Filled by the walks in beforeAll (every page of every list, limit 7); the tests check what was seen.
  let roundWalk: Walked<Round>;
  const ticketWalks = new Map<string, Walked<Ticket>>();
  const winWalks = new Map<string, Walked<Win>>();
  let allTickets: Ticket[];

  const get = async (url: string) => {
    requests++;
    return api.request(url);
  };
  const json = async <T>(url: string): Promise<T> => {
    const response = await get(url);
    if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode} ${response.body}`);
    return response.json() as T;
  };
  /** Follows next_cursor from the first page to the one with has_more false. */
  const walk = async <T>(path: string, limit = PAGE): Promise<Walked<T>> => {
    const pages: Page<T>[] = [];
    let cursor: string | null = null;
    while (pages.length < 1_000) {
      const query = `limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`;
      const page: Page<T> = await json<Page<T>>(`${path}${path.includes('?') ? '&' : '?'}${query}`);
      pages.push(page);
      if (!page.has_more) return { items: pages.flatMap((p) => p.data), pages };
      cursor = page.next_cursor;
    }
    throw new Error(`${path}: pagination did not end`);
  };
  const poolGet = async <T>(path: string, status = 200): Promise<T> => {
    const url = `${POOL}${path}`;
    requests++;
    const response = await api.request({ method: 'GET', url, headers: { apikey: KEY } });
    poolValidator.check({
      method: 'GET',
      url,
      statusCode: response.statusCode,
      headers: response.headers,
      body: response.body,
    });
    expect({ url, status: response.statusCode }).toEqual({ url, status });
    return response.json() as T;
  };

  const rounds = () => roundWalk.items;
  const settledRounds = () => rounds().filter((r) => r.status === 'settled');
  const activeRoundId = () => lottery.history.openDrawingId.toString();
  const ticketsOf = (roundId: string) => ticketWalks.get(roundId)?.items ?? [];
  const wallets = () => [...new Set(allTickets.map((t) => t.wallet))];

  beforeAll(async () => {
    const started = Date.now();
    lottery = await buildProjectedLottery({
      label: 'api_projected',
      history: { seed: SEED, rounds: ROUNDS, ticketsPerRound: TICKETS_PER_ROUND },
      // The history leaves the open round without pool activity: give it entries and a pool purchase.
      extend: async (rpcUrl, deployment) => {
        const ctx = await createSimulationContext(rpcUrl, deployment, { seed: SEED });
        for (const entrant of ctx.wallets.players.slice(0, OPEN_ROUND_ENTRANTS)) {
          await ctx.writers.dailyTicketPool(entrant, 'enter', []);
        }
        await ctx.writers.dailyTicketPool(deployment.deployer, 'buyPoolTickets', [OPEN_ROUND_POOL_TICKETS]);
      },
    });
    chain = await readLotteryChain(lottery.chain, lottery.deployment);
    const keys = new StubApiKeys();
    keys.add(KEY);
    api = await startTestApp({ readModels: lottery.readModels, apiKeys: keys });
    poolValidator = new OpenApiValidator((await api.request('/api/v1/openapi.json')).json());

    roundWalk = await walk<Round>('/v1/rounds', 1);
    for (const round of roundWalk.items) {
      ticketWalks.set(round.id, await walk<Ticket>(`/v1/rounds/${round.id}/tickets`));
      winWalks.set(round.id, await walk<Win>(`/v1/rounds/${round.id}/wins`));
    }
    allTickets = [...ticketWalks.values()].flatMap((w) => w.items);
    console.info(
      `projected history: ${lottery.events} events, ${allTickets.length} tickets; simulate ${lottery.timings.simulate} s, ` +
        `index ${lottery.timings.index} s, project ${lottery.timings.project} s; ready in ${(Date.now() - started) / 1000} s`,
    );
  });

  afterAll(async () => {
    console.info(`${requests} requests, every one checked against the served OpenAPI documents`);
    await api?.close();
    await lottery?.dispose();
  });

  it('the pipeline projected the whole simulated history', () => {
    const { stats, settled } = lottery.history;
    expect(settled).toHaveLength(ROUNDS);
    expect(stats.draws).toBe(ROUNDS);
    // players' tickets plus the operator's pool tickets
    expect(allTickets).toHaveLength(stats.tickets + POOL_TICKETS_PER_ROUND * ROUNDS + Number(OPEN_ROUND_POOL_TICKETS));
    expect(stats.ticketTransfers).toBeGreaterThan(0);
    expect(stats.winningTicketsClaimed).toBeGreaterThan(0);
    expect(stats.winningTicketsLeftUnclaimed).toBeGreaterThan(0);
    expect(stats.poolWinners).toBe(ROUNDS);
  });

  describe('Data API: rounds', () => {
    it('lists every round newest first, one per page with limit=1, the open one active', async () => {
      const ids = rounds().map((r) => r.id);
      expect(ids).toEqual(['4', '3', '2', '1']);
      expect(activeRoundId()).toBe('4');
      expect(rounds().map((r) => r.status)).toEqual(['active', 'settled', 'settled', 'settled']);
      expect(roundWalk.pages.map((p) => p.data.length)).toEqual([1, 1, 1, 1]);
      for (const round of rounds()) expect(await json<Round>(`/v1/rounds/${round.id}`)).toEqual(round);
      expect(await json<Round>('/v1/rounds/active')).toEqual(rounds()[0]);
      expect(await json<Page<Round>>('/v1/rounds')).toEqual({ data: rounds(), next_cursor: null, has_more: false });
    });

    it('settled rounds carry their draw and 12 prize tiers whose ticket counts add up', () => {
      for (const [i, round] of settledRounds().entries()) {
        const tiers = round.prize_tiers as PrizeTier[];
        expect(round.winning_numbers).not.toBeNull();
        expect(round.settled_at).not.toBeNull();
        expect(tiers.map((t) => t.tier_id)).toEqual([...Array(12).keys()]);
        for (const t of tiers) expect(t.tier_id).toBe(t.normal_matches * 2 + (t.bonusball_match ? 1 : 0));
        expect(tiers[0].payout.amount).toBe('0');
        expect(tiers[2].payout.amount).toBe('0');
        expect(tiers.reduce((n, t) => n + t.ticket_count, 0)).toBe(round.ticket_count);
        const paying = tiers.filter((t) => BigInt(t.payout.amount) > 0n);
        expect(round.winners_count).toBe(paying.reduce((n, t) => n + t.ticket_count, 0));
        expect(round.top_prize_winners_count).toBe(tiers[11].ticket_count);
        expect(round.top_prize_amount).toEqual(tiers[11].ticket_count > 0 ? tiers[11].payout : null);
        // started_at is the previous round's settled_at (round 1 has none)
        const previous = settledRounds()[i + 1];
        expect(round.started_at).toBe(previous ? previous.settled_at : null);
        expect(Date.parse(round.settled_at as string)).toBeGreaterThanOrEqual(Date.parse(round.ended_at as string));
      }
    });

    it('the active round has sales but no draw yet', () => {
      const active = rounds()[0];
      expect(active).toMatchObject({
        status: 'active',
        winning_numbers: null,
        prize_tiers: null,
        top_prize_amount: null,
        top_prize_winners_count: 0,
        winners_count: 0,
        settled_at: null,
        started_at: rounds()[1].settled_at,
      });
      expect(active.ticket_count).toBeGreaterThan(0);
      expect(BigInt(active.lp_earnings.amount)).toBeGreaterThan(0n);
    });

    it('ticket_count, unique_participants and the tiers match the round’s own tickets', () => {
      for (const round of rounds()) {
        const tickets = ticketsOf(round.id);
        expect(tickets).toHaveLength(round.ticket_count);
        expect(new Set(tickets.map((t) => t.wallet)).size).toBe(round.unique_participants);
        if (round.prize_tiers === null) continue;
        for (const tier of round.prize_tiers) {
          const inTier = tickets.filter(
            (t) => t.matched_normals === tier.normal_matches && t.bonusball_match === tier.bonusball_match,
          );
          expect({ tier: tier.tier_id, count: inTier.length }).toEqual({
            tier: tier.tier_id,
            count: tier.ticket_count,
          });
        }
      }
    });
  });

  describe('Data API: pagination', () => {
    const expectConsistentPages = <T>(walked: Walked<T>, limit: number) => {
      walked.pages.forEach((page, i) => {
        const last = i === walked.pages.length - 1;
        expect(page.has_more).toBe(!last);
        expect(page.next_cursor === null).toBe(last);
        if (page.next_cursor !== null) expect(page.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        if (!last) expect(page.data).toHaveLength(limit);
        else expect(page.data.length).toBeLessThanOrEqual(limit);
      });
    };

    it('walks every ticket of every round with limit=7: newest first, no duplicate, no gap', () => {
      for (const round of rounds()) {
        const walked = ticketWalks.get(round.id) as Walked<Ticket>;
        expectConsistentPages(walked, PAGE);
        expect(walked.pages.length).toBe(Math.max(1, Math.ceil(round.ticket_count / PAGE)));
        const ids = walked.items.map((t) => BigInt(t.id));
        expect(ids).toEqual([...ids].sort((a, b) => (b > a ? 1 : -1)));
        expect(new Set(ids).size).toBe(ids.length);
        for (const t of walked.items) expect(t.round_id).toBe(round.id);
      }
      // ids are the global purchase sequence: all rounds together are exactly 1..N, a newer round's all higher
      const ids = allTickets.map((t) => Number(t.id)).sort((a, b) => a - b);
      expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
      for (const [newer, older] of [...rounds().keys()].slice(0, -1).map((i) => [rounds()[i], rounds()[i + 1]])) {
        const oldestOfNewer = ticketsOf(newer.id).at(-1) as Ticket;
        expect(BigInt(oldestOfNewer.id)).toBeGreaterThan(BigInt(ticketsOf(older.id)[0].id));
      }
    });

    it('clamps limit to 1..100 and defaults it to 50', async () => {
      const round = rounds().find((r) => r.ticket_count > 100) as Round;
      expect(round).toBeDefined();
      const newest = ticketsOf(round.id);
      const page = (query: string) => json<Page<Ticket>>(`/v1/rounds/${round.id}/tickets${query}`);
      for (const tooSmall of ['0', '-5', '-99999999999999999999']) {
        expect((await page(`?limit=${tooSmall}`)).data).toEqual(newest.slice(0, 1));
      }
      for (const tooLarge of ['101', '1000', '99999999999999999999999']) {
        const body = await page(`?limit=${tooLarge}`);
        expect(body.data).toEqual(newest.slice(0, 100));
        expect(body.has_more).toBe(true);
      }
      expect((await page('')).data).toEqual(newest.slice(0, 50));
      // a page picks up exactly where the previous one stopped, whatever the limits
      const first = await page('?limit=30');
      const second = await page(`?limit=1000&cursor=${first.next_cursor}`);
      expect([...first.data, ...second.data]).toEqual(newest);
      expect(second).toMatchObject({ has_more: false, next_cursor: null });
    });

    it('answers 400 invalid_cursor for malformed, tampered and foreign cursors, 400 invalid_request for a bad limit', async () => {
      const roundId = settledRounds()[0].id;
      const ticketCursor = (ticketWalks.get(roundId) as Walked<Ticket>).pages[0].next_cursor as string;
      const winCursor = (winWalks.get(roundId) as Walked<Win>).pages[0].next_cursor as string;
      expect(winCursor).not.toBeNull();
      const tampered = ticketCursor.slice(0, -1) + (ticketCursor.endsWith('A') ? 'B' : 'A');
      const wallet = allTickets[0].wallet;
      const cases: [string, string][] = [
        [`/v1/rounds/${roundId}/tickets?cursor=not!a!cursor`, 'invalid_cursor'],
        [`/v1/rounds/${roundId}/tickets?cursor=`, 'invalid_cursor'],
        [`/v1/rounds/${roundId}/tickets?cursor=${tampered}`, 'invalid_cursor'],
        [`/v1/rounds/${roundId}/tickets?cursor=${winCursor}`, 'invalid_cursor'],
        [`/v1/rounds/${roundId}/wins?cursor=${ticketCursor}`, 'invalid_cursor'],
        [`/v1/rounds?cursor=%2B%2F%3D`, 'invalid_cursor'],
        [`/v1/wallets/${wallet}/tickets?cursor=${winCursor}`, 'invalid_cursor'],
        [`/v1/wallets/${wallet}/wins/rounds/${roundId}?cursor=zzzz`, 'invalid_cursor'],
        [`/v1/rounds/${roundId}/tickets?limit=ten`, 'invalid_request'],
        [`/v1/rounds/${roundId}/tickets?limit=1.5`, 'invalid_request'],
      ];
      for (const [url, code] of cases) {
        const response = await get(url);
        expect({ url, status: response.statusCode, code: response.json().error.code }).toEqual({
          url,
          status: 400,
          code,
        });
      }
    });

    it('answers 404 not_found on round-scoped lists of a round that does not exist', async () => {
      const wallet = allTickets[0].wallet;
      for (const url of [
        '/v1/rounds/99',
        '/v1/rounds/99/tickets',
        '/v1/rounds/99/wins',
        `/v1/wallets/${wallet}/tickets/rounds/99`,
        `/v1/wallets/${wallet}/wins/rounds/99`,
      ]) {
        const response = await get(url);
        expect({ url, status: response.statusCode, code: response.json().error.code }).toEqual({
          url,
          status: 404,
          code: 'not_found',
        });
      }
    });
  });

  describe('Data API: tickets and wins', () => {
    it('drawn tickets carry the match against the winning numbers and net winnings; open ones carry nulls', async () => {
      for (const round of rounds()) {
        const tiers = round.prize_tiers;
        const state = await drawingState(lottery.chain, lottery.deployment, BigInt(round.id));
        for (const t of ticketsOf(round.id)) {
          if (round.winning_numbers === null || tiers === null) {
            expect([t.matched_normals, t.bonusball_match, t.winnings_amount, t.claimed]).toEqual([
              null,
              null,
              null,
              false,
            ]);
            continue;
          }
          const matched = t.normals.filter((n) => round.winning_numbers?.normals.includes(n)).length;
          const bonusMatch = t.bonusball === round.winning_numbers.bonusball;
          const gross = BigInt(tiers[matched * 2 + (bonusMatch ? 1 : 0)].payout.amount);
          const net = (gross * (FRACTION_SCALE - state.referralWinShare)) / FRACTION_SCALE;
          expect({ id: t.id, matched: t.matched_normals, bonus: t.bonusball_match, won: t.winnings_amount }).toEqual({
            id: t.id,
            matched,
            bonus: bonusMatch,
            won: usdc(net),
          });
          expect(t.claimed_tx_hash !== null).toBe(t.claimed);
          if (t.claimed) expect(isWinning(t)).toBe(true);
        }
      }
      const drawnWinners = allTickets.filter(isWinning);
      expect(drawnWinners.filter((t) => t.claimed)).toHaveLength(lottery.history.stats.winningTicketsClaimed);
      expect(drawnWinners.filter((t) => !t.claimed)).toHaveLength(lottery.history.stats.winningTicketsLeftUnclaimed);
    });

    it('lists a round’s wins by amount descending, then id descending, as Win records', () => {
      for (const round of rounds()) {
        const walked = winWalks.get(round.id) as Walked<Win>;
        const expected = ticketsOf(round.id)
          .filter(isWinning)
          .map(asWin)
          .sort((a, b) => {
            const byAmount = BigInt(b.amount.amount) - BigInt(a.amount.amount);
            return byAmount !== 0n ? (byAmount > 0n ? 1 : -1) : byIdDesc(a, b);
          });
        expect(walked.items).toEqual(expected);
        expect(walked.items).toHaveLength(round.winners_count);
        expect(walked.pages.length).toBe(Math.max(1, Math.ceil(round.winners_count / PAGE)));
        for (const win of walked.items) expect(Object.keys(win)).not.toContain('winnings_amount');
      }
      expect(winWalks.get(activeRoundId())?.items).toEqual([]);
      // several distinct amounts, so the order is really exercised
      const amounts = new Set(settledRounds().flatMap((r) => winWalks.get(r.id)?.items.map((w) => w.amount.amount)));
      expect(amounts.size).toBeGreaterThan(1);
    });
  });

  describe('Data API: wallets', () => {
    it('walks every wallet’s tickets with limit=7 and finds exactly its tickets of the round lists, newest first', async () => {
      for (const wallet of wallets()) {
        const stats = await json<WalletStats>(`/v1/wallets/${wallet}/stats`);
        const walked = await walk<Ticket>(`/v1/wallets/${wallet}/tickets`);
        const expected = allTickets.filter((t) => t.wallet === wallet).sort(byIdDesc);
        expect(walked.items).toEqual(expected);
        expect(walked.items).toHaveLength(stats.total_tickets);
        expect(walked.pages.length).toBe(Math.ceil(stats.total_tickets / PAGE));
        walked.pages.forEach((page, i) => expect(page.has_more).toBe(i < walked.pages.length - 1));
        for (const round of rounds()) {
          const inRound = await walk<Ticket>(`/v1/wallets/${wallet}/tickets/rounds/${round.id}`);
          expect(inRound.items).toEqual(expected.filter((t) => t.round_id === round.id));
        }
      }
    });

    it('wallet stats agree with the wallet’s tickets and wins', async () => {
      const price = lottery.deployment.config.ticketPrice;
      for (const wallet of wallets()) {
        const tickets = allTickets.filter((t) => t.wallet === wallet);
        const winning = tickets.filter(isWinning).sort(byIdDesc);
        const stats = await json<WalletStats>(`/v1/wallets/${wallet.toLowerCase()}/stats`);
        const created = tickets.map((t) => t.created_at).sort();
        expect(stats).toMatchObject({
          address: wallet,
          total_tickets: tickets.length,
          total_wins: winning.length,
          total_winnings: usdc(sum(winning.map((t) => BigInt(t.winnings_amount?.amount ?? '0')))),
          total_spent: usdc(price * BigInt(tickets.length)),
          rounds_played: new Set(tickets.map((t) => t.round_id)).size,
          first_seen_at: created[0],
          last_seen_at: created.at(-1),
        });

        const wins = await walk<Win>(`/v1/wallets/${wallet}/wins`);
        expect(wins.items).toEqual(winning.map(asWin));
        for (const round of settledRounds()) {
          const inRound = await walk<Win>(`/v1/wallets/${wallet}/wins/rounds/${round.id}`);
          expect(inRound.items).toEqual(winning.filter((t) => t.round_id === round.id).map(asWin));
        }
      }
    });

    it('referral earnings are the fees collected on chain plus the referrers’ split of unclaimed winnings', async () => {
      const pending = new Map<string, bigint>();
      for (const t of allTickets.filter((x) => isWinning(x) && !x.claimed)) {
        const onChain = chain.tickets.get(BigInt(t.user_ticket_id));
        const scheme = onChain && chain.referralSchemes.get(onChain.referralScheme);
        if (!scheme) continue;
        const state = await drawingState(lottery.chain, lottery.deployment, BigInt(t.round_id));
        const round = rounds().find((r) => r.id === t.round_id) as Round;
        const gross = BigInt(
          (round.prize_tiers as PrizeTier[])[(t.matched_normals as number) * 2 + (t.bonusball_match ? 1 : 0)].payout
            .amount,
        );
        const share = gross - (gross * (FRACTION_SCALE - state.referralWinShare)) / FRACTION_SCALE;
        scheme.referrers.forEach((referrer, i) => {
          const key = referrer.toLowerCase();
          pending.set(key, (pending.get(key) ?? 0n) + (share * scheme.split[i]) / FRACTION_SCALE);
        });
      }
      const referrers = [...chain.referralFeesCollected.keys()];
      expect(referrers.length).toBeGreaterThan(0);
      expect([...pending.values()].some((v) => v > 0n)).toBe(true);
      for (const referrer of referrers) {
        const stats = await json<WalletStats>(`/v1/wallets/${referrer}/stats`);
        const expected = (chain.referralFeesCollected.get(referrer) ?? 0n) + (pending.get(referrer) ?? 0n);
        expect({ referrer, earnings: stats.total_referral_earnings }).toEqual({ referrer, earnings: usdc(expected) });
      }
      // a referrer that never received a ticket: earnings but no tickets and no timestamps
      const referrerOnly = referrers.find((r) => !wallets().some((w) => w.toLowerCase() === r)) as string;
      expect(referrerOnly).toBeDefined();
      expect(await json<WalletStats>(`/v1/wallets/${referrerOnly}/stats`)).toMatchObject({
        total_tickets: 0,
        rounds_played: 0,
        first_seen_at: null,
        last_seen_at: null,
      });
    });

    it('an unknown wallet has zero stats, null timestamps and empty lists', async () => {
      const unknown = '0x00000000000000000000000000000000DeaDBeef';
      expect(await json<WalletStats>(`/v1/wallets/${unknown.toUpperCase().replace('0X', '0x')}/stats`)).toEqual({
        address: checksumAddress(unknown.toLowerCase() as `0x${string}`),
        total_tickets: 0,
        total_wins: 0,
        total_winnings: usdc(0n),
        total_spent: usdc(0n),
        total_referral_earnings: usdc(0n),
        rounds_played: 0,
        first_seen_at: null,
        last_seen_at: null,
      });
      const empty = { data: [], next_cursor: null, has_more: false };
      expect(await json(`/v1/wallets/${unknown}/tickets`)).toEqual(empty);
      expect(await json(`/v1/wallets/${unknown}/wins`)).toEqual(empty);
      expect(await json(`/v1/wallets/${unknown}/tickets/rounds/1`)).toEqual(empty);
      expect(await json(`/v1/wallets/${unknown}/wins/rounds/1`)).toEqual(empty);
    });
  });

  describe('free daily pool API', () => {
    const entriesOnChain = (roundId: bigint) => chain.poolEntries.filter((e) => e.drawingId === roundId);
    const expectedEntries = async (roundId: bigint, wallet?: string) =>
      Promise.all(
        entriesOnChain(roundId)
          .filter((e) => wallet === undefined || e.entrant.toLowerCase() === wallet.toLowerCase())
          .map(async (e) => ({
            id: Number(e.entryId),
            address: e.entrant.toLowerCase(),
            timestamp: (await chain.blockTime(e.blockNumber)).toISOString(),
          })),
      );

    it('every completed round shows the chain’s entries, pool purchase and winner', async () => {
      let totalEntries = 0;
      for (const round of settledRounds()) {
        const id = BigInt(round.id);
        const view = await poolGet<PoolRoundView>(`/round/${round.id}`);
        const purchase = chain.poolPurchases.filter((p) => p.drawingId === id).at(-1);
        const winner = chain.poolWinners.filter((w) => w.drawingId === id).at(-1);
        expect(purchase).toBeDefined();
        expect(winner).toBeDefined();
        const entries = await expectedEntries(id);
        expect(view).toEqual({
          roundId: Number(id),
          transaction: {
            id: expect.any(Number),
            transactionHash: purchase?.txHash,
            blockNumber: Number(purchase?.blockNumber),
            timestamp: (await chain.blockTime(purchase?.blockNumber as bigint)).toISOString(),
          },
          entries,
          totalEntries: entries.length,
          // the winning entry, timed by the selection's block (design: PoolWinnerSelected)
          winner: {
            id: Number(winner?.entryId),
            address: winner?.winner.toLowerCase(),
            timestamp: (await chain.blockTime(winner?.blockNumber as bigint)).toISOString(),
          },
        });
        const winningEntry = entries.find((e) => e.id === view.winner?.id);
        expect(winningEntry?.address).toBe(view.winner?.address);
        expect(Date.parse(view.winner?.timestamp as string)).toBeGreaterThan(
          Date.parse(round.settled_at as string) - 1,
        );
        totalEntries += view.totalEntries;
      }
      expect(totalEntries).toBe(lottery.history.stats.poolEntries);
      expect(await poolGet<PoolRoundView>('/round')).toEqual(await poolGet(`/round/${settledRounds()[0].id}`));
    });

    it('the active round is the open drawing: its entries and pool purchase, no winner', async () => {
      const roundId = lottery.history.openDrawingId;
      const active = await poolGet<PoolRoundView>('/active-round');
      const entries = await expectedEntries(roundId);
      const purchase = chain.poolPurchases.find((p) => p.drawingId === roundId);
      expect(entries).toHaveLength(OPEN_ROUND_ENTRANTS);
      expect(active).toEqual({
        roundId: Number(roundId),
        transaction: {
          id: expect.any(Number),
          transactionHash: purchase?.txHash,
          blockNumber: Number(purchase?.blockNumber),
          timestamp: (await chain.blockTime(purchase?.blockNumber as bigint)).toISOString(),
        },
        entries,
        totalEntries: OPEN_ROUND_ENTRANTS,
      });
      expect(await poolGet(`/round/${roundId}`)).toEqual(active);
      const entrant = checksumAddress(entries[1].address as `0x${string}`);
      expect(await poolGet(`/active-round/${entrant}`)).toEqual({ ...active, entries: [entries[1]] });
      expect(await poolGet(`/round/${roundId}/${entrant}`)).toEqual({ ...active, entries: [entries[1]] });
      const outsider = allTickets.map((t) => t.wallet).find((w) => !entries.some((e) => e.address === w.toLowerCase()));
      expect(await poolGet(`/active-round/${outsider}`)).toEqual({ ...active, entries: [] });
      expect(await poolGet(`/${outsider}`)).toEqual({ entries: [] });
      expect(await poolGet(`/round/99`, 404)).toEqual({ error: 'Round not found' });
      expect(await poolGet(`/round/1/0x1234`, 400)).toEqual({ error: 'Invalid wallet address' });
    });

    it('pool transactions are numbered in chain order', async () => {
      const ids: number[] = [];
      for (const round of [...rounds()].reverse()) {
        const view = await poolGet<PoolRoundView>(`/round/${round.id}`);
        ids.push(view.transaction?.id as number);
      }
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('wallet views narrow the entries (lowercase, any input case) but not totalEntries', async () => {
      const entrants = [...new Set(chain.poolEntries.map((e) => e.entrant.toLowerCase()))];
      expect(entrants.length).toBeGreaterThan(3);
      for (const entrant of entrants) {
        const mixedCase = checksumAddress(entrant as `0x${string}`);
        const all: (PoolEntry & { jackpotRoundId: number })[] = [];
        for (const round of [...rounds()].reverse()) {
          const view = await poolGet<PoolRoundView>(`/round/${round.id}/${mixedCase}`);
          const entries = await expectedEntries(BigInt(round.id), entrant);
          expect(view.entries).toEqual(entries);
          expect(view.totalEntries).toBe(entriesOnChain(BigInt(round.id)).length);
          expect('winner' in view).toBe(round.status === 'settled');
          all.push(...entries.map((e) => ({ ...e, jackpotRoundId: Number(round.id) })));
        }
        const across = await poolGet<{ entries: (PoolEntry & { jackpotRoundId: number })[] }>(
          `/${entrant.toUpperCase().replace('0X', '0x')}`,
        );
        expect(across.entries).toEqual(all.sort((a, b) => a.id - b.id));
        for (const e of across.entries) expect(e.address).toMatch(/^0x[0-9a-f]{40}$/);
      }
    });

    it('the 6-hour rule holds: no address has two entries less than 6 hours apart in one round', async () => {
      let reentries = 0;
      for (const round of settledRounds()) {
        const { entries } = await poolGet<PoolRoundView>(`/round/${round.id}`);
        const lastBy = new Map<string, number>();
        for (const entry of [...entries].sort((a, b) => a.id - b.id)) {
          const at = Date.parse(entry.timestamp);
          const previous = lastBy.get(entry.address);
          if (previous !== undefined) {
            reentries++;
            expect({ round: round.id, entry: entry.id, gapMs: at - previous >= SIX_HOURS_MS }).toEqual({
              round: round.id,
              entry: entry.id,
              gapMs: true,
            });
          }
          lastBy.set(entry.address, at);
        }
      }
      // the history does re-enter after 6 hours, so the rule was really exercised
      expect(reentries).toBeGreaterThan(0);
      // …and a new round resets it: last-minute entrants enter the next round minutes later
      const quickReturns = chain.poolEntries.filter((e, i) =>
        chain.poolEntries
          .slice(0, i)
          .some(
            (p) => p.entrant === e.entrant && p.drawingId === e.drawingId - 1n && e.blockNumber - p.blockNumber < 100n,
          ),
      );
      expect(quickReturns.length).toBeGreaterThan(0);
    });
  });

  describe('against the chain itself', () => {
    it('rounds: prize pool, sales, LP earnings, drawing time, ball pool, winning numbers and tier payouts', async () => {
      for (const round of rounds()) {
        const id = BigInt(round.id);
        const state = await drawingState(lottery.chain, lottery.deployment, id);
        expect({ id: round.id, ...pick(round) }).toEqual({
          id: round.id,
          prize_pool: usdc(state.prizePool),
          ticket_count: Number(state.globalTicketsBought),
          lp_earnings: usdc(state.lpEarnings),
          ended_at: new Date(Number(state.drawingTime) * 1000).toISOString(),
          ball_pool: { normals_max: state.ballMax, bonusball_max: state.bonusballMax },
        });
        if (round.status !== 'settled') continue;
        const winning = unpackWinningTicket(state.winningTicket, state.ballMax, state.bonusballMax);
        expect(round.winning_numbers).toEqual({ normals: winning.normals, bonusball: winning.bonusballs[0] });
        expect(winning.bonusballs).toHaveLength(1);
        const payouts = await drawingTierPayouts(lottery.chain, lottery.deployment, id);
        expect(round.prize_tiers?.map((t) => t.payout)).toEqual(payouts.map(usdc));
      }
    });

    it('tickets: recipient, buyer, purchase transaction, numbers, claims and ownership of the ticket NFTs', async () => {
      expect(chain.tickets.size).toBe(allTickets.length);
      let transferred = 0;
      for (const t of allTickets) {
        const onChain = chain.tickets.get(BigInt(t.user_ticket_id));
        expect(onChain).toBeDefined();
        if (!onChain) continue;
        const burn = onChain.transfers.find((x) => x.to === '0x0000000000000000000000000000000000000000');
        expect({
          id: t.id,
          wallet: t.wallet,
          buyer: t.buyer,
          round: t.round_id,
          tx: t.tx_hash,
          block: t.block_number,
          claimedTx: t.claimed_tx_hash,
        }).toEqual({
          id: t.id,
          wallet: checksumAddress(onChain.recipient.toLowerCase() as `0x${string}`),
          buyer: checksumAddress(onChain.buyer.toLowerCase() as `0x${string}`),
          round: onChain.drawingId.toString(),
          tx: onChain.txHash,
          block: Number(onChain.blockNumber),
          claimedTx: burn?.txHash ?? null,
        });
        if (onChain.transfers.some((x) => x.to !== '0x0000000000000000000000000000000000000000')) transferred++;
      }
      // wallet is the purchase's recipient: tickets that changed hands keep it
      expect(transferred).toBeGreaterThan(0);

      // purchase time: the block's
      for (const t of allTickets) {
        expect({ id: t.id, created_at: t.created_at }).toEqual({
          id: t.id,
          created_at: (await chain.blockTime(BigInt(t.block_number))).toISOString(),
        });
      }

      // a handful of live NFTs, read one by one: numbers, drawing and current holder
      const live = allTickets.filter((t) => !t.claimed);
      const sample = [0, 1, 2, 3, 4, 5].map((i) => live[Math.floor((i * live.length) / 6)]);
      sample.push(...live.filter((t) => (chain.tickets.get(BigInt(t.user_ticket_id))?.transfers.length ?? 0) > 0));
      for (const t of sample) {
        const info = await ticketInfo(lottery.chain, lottery.deployment, BigInt(t.user_ticket_id));
        const numbers = unpackTicketNumbers(info.numbers);
        const onChain = chain.tickets.get(BigInt(t.user_ticket_id)) as TicketOnChain;
        const holder = onChain.transfers.at(-1)?.to ?? onChain.recipient;
        expect({ id: t.id, round: t.round_id, normals: sorted(t.normals), bonusball: t.bonusball }).toEqual({
          id: t.id,
          round: info.drawingId.toString(),
          normals: sorted(numbers.normals),
          bonusball: numbers.bonusball,
        });
        expect(info.owner.toLowerCase()).toBe(holder.toLowerCase());
        if (onChain.transfers.length === 0) expect(info.owner.toLowerCase()).toBe(t.wallet.toLowerCase());
      }
    });
  });
});

function pick(round: Round) {
  const { prize_pool, ticket_count, lp_earnings, ended_at, ball_pool } = round;
  return { prize_pool, ticket_count, lp_earnings, ended_at, ball_pool };
}
