import { checksumAddress } from '@lottery/domain';
import { lotteryDataset, UNKNOWN_WALLET, WALLETS } from './support/lottery-fixtures';
import { startTestApp, type TestApp } from './support/test-app';

// Read models: InMemoryReadModels over lotteryDataset() (see support/): exact expected values per field;
// projected-read-models.e2e runs the endpoints on read models the projector filled from a chain history.
describe('Data API endpoints', () => {
  let api: TestApp;
  const json = async (url: string) => {
    const response = await api.request(url);
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  /** Follows next_cursor to the end, checking the pagination envelope on every page. */
  const walk = async (url: string, limit: number) => {
    const items: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const sep = url.includes('?') ? '&' : '?';
      const body = await json(`${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(Object.keys(body).sort()).toEqual(['data', 'has_more', 'next_cursor']);
      items.push(...body.data);
      expect(body.has_more).toBe(body.next_cursor !== null);
      if (!body.has_more) return items;
      expect(body.data).toHaveLength(limit);
      cursor = body.next_cursor;
    }
    throw new Error('pagination did not end');
  };

  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it('GET /v1/rounds/active returns the open round with null draw fields', async () => {
    const round = await json('/v1/rounds/active');
    expect(round).toMatchObject({
      id: '3',
      status: 'active',
      lp_earnings: { amount: '0', decimals: 6 },
      winning_numbers: null,
      prize_tiers: null,
      top_prize_amount: null,
      ended_at: null,
      settled_at: null,
      ball_pool: { normals_max: 30, bonusball_max: 10 },
    });
  });

  it('GET /v1/rounds/{id} returns every field of a settled round in the spec format', async () => {
    const round = await json('/v1/rounds/1');
    expect(Object.keys(round)).toHaveLength(15);
    expect(round).toMatchObject({
      id: '1',
      status: 'settled',
      prize_pool: { amount: '1000000000', decimals: 6 },
      top_prize_amount: { amount: '500000000', decimals: 6 },
      started_at: null,
      ended_at: '2026-01-01T01:00:00.123Z',
      settled_at: '2026-01-01T02:00:00.123Z',
      winning_numbers: { normals: [3, 9, 14, 22, 28], bonusball: 4 },
    });
    expect(round.prize_tiers).toHaveLength(12);
    expect(round.prize_tiers[11]).toEqual({
      tier_id: 11,
      normal_matches: 5,
      bonusball_match: true,
      payout: { amount: '11000000', decimals: 6 },
      ticket_count: 11,
    });
    expect(await json('/v1/rounds/0001')).toEqual(round);
  });

  it('lists rounds newest first across pages', async () => {
    expect((await walk('/v1/rounds', 1)).map((r) => r.id)).toEqual(['3', '2', '1']);
    expect((await json('/v1/rounds')).has_more).toBe(false);
  });

  it('lists round tickets newest first with cursors, default limit 50, clamped to 1..100', async () => {
    const all = await walk('/v1/rounds/1/tickets', 7);
    expect(all).toHaveLength(130);
    const ids = all.map((t) => Number(t.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect((await json('/v1/rounds/1/tickets')).data).toHaveLength(50);
    expect((await json('/v1/rounds/1/tickets?limit=1000')).data).toHaveLength(100);
    expect((await json('/v1/rounds/1/tickets?limit=0')).data).toHaveLength(1);
    expect((await json('/v1/rounds/1/tickets?limit=-5')).data).toHaveLength(1);
    expect((await json('/v1/rounds/1/tickets?limit=99999999999999999999999')).data).toHaveLength(100);
  });

  it('renders tickets with EIP-55 addresses and the draw outcome', async () => {
    const [newest] = (await json('/v1/rounds/1/tickets?limit=1')).data;
    expect(newest).toEqual({
      id: '130',
      wallet: checksumAddress(WALLETS[129 % 3]),
      buyer: checksumAddress(WALLETS[1]),
      round_id: '1',
      user_ticket_id: '910',
      normals: [1, 2, 3, 4, 5],
      bonusball: 6,
      matched_normals: 1,
      bonusball_match: false,
      winnings_amount: { amount: '0', decimals: 6 },
      claimed: false,
      claimed_tx_hash: null,
      tx_hash: `0x${(130).toString(16).padStart(64, '0')}`,
      block_number: 1130,
      created_at: '2026-01-01T00:02:10.123Z',
    });
    const [undrawn] = (await json('/v1/rounds/3/tickets?limit=1')).data;
    expect(undrawn).toMatchObject({ matched_normals: null, bonusball_match: null, winnings_amount: null });
  });

  it('lists round wins by amount descending then id descending, in Win shape', async () => {
    const wins = await walk('/v1/rounds/1/wins', 4);
    const expected = lotteryDataset()
      .tickets.filter((t) => t.roundId === 1n && (t.winningsAmount ?? 0n) > 0n)
      .sort((a, b) => Number((b.winningsAmount ?? 0n) - (a.winningsAmount ?? 0n)) || Number(b.id - a.id))
      .map((t) => t.id.toString());
    expect(wins.map((w) => w.id)).toEqual(expected);
    expect(wins[0]).not.toHaveProperty('winnings_amount');
    expect(wins[0]).toMatchObject({ amount: { amount: '6000000', decimals: 6 }, matched_normals: 3 });
    expect((await json('/v1/rounds/2/wins')).data).toEqual([]);
  });

  it('returns wallet stats, zeros with null timestamps for an unknown wallet', async () => {
    const stats = await json(`/v1/wallets/${WALLETS[0].toUpperCase().replace('0X', '0x')}/stats`);
    expect(stats).toEqual({
      address: checksumAddress(WALLETS[0]),
      total_tickets: 47,
      total_wins: 5,
      total_winnings: { amount: '20000000', decimals: 6 },
      total_spent: { amount: '47000000', decimals: 6 },
      total_referral_earnings: { amount: '1234567', decimals: 6 },
      rounds_played: 3,
      first_seen_at: '2026-01-01T00:00:01.123Z',
      last_seen_at: '2026-01-01T00:02:17.123Z',
    });
    expect(await json(`/v1/wallets/${UNKNOWN_WALLET}/stats`)).toMatchObject({
      address: checksumAddress(UNKNOWN_WALLET),
      total_tickets: 0,
      total_winnings: { amount: '0', decimals: 6 },
      first_seen_at: null,
      last_seen_at: null,
    });
  });

  it('lists wallet tickets and wins, overall and per round, newest first', async () => {
    const wallet = checksumAddress(WALLETS[0]);
    const tickets = await walk(`/v1/wallets/${wallet}/tickets`, 10);
    expect(tickets.every((t) => t.wallet === wallet)).toBe(true);
    expect(tickets).toHaveLength(lotteryDataset().tickets.filter((t) => t.wallet === WALLETS[0]).length);
    const inRound2 = await walk(`/v1/wallets/${wallet}/tickets/rounds/2`, 1);
    expect(inRound2.map((t) => t.round_id)).toEqual(['2', '2']);
    const wins = await walk(`/v1/wallets/${wallet}/wins`, 2);
    expect(wins.length).toBeGreaterThan(0);
    expect(wins.every((w) => w.wallet === wallet && 'amount' in w)).toBe(true);
    expect(await walk(`/v1/wallets/${wallet}/wins/rounds/1`, 100)).toEqual(wins);
    for (const list of [tickets, wins]) {
      const ids = list.map((t) => BigInt(String(t.id)));
      expect(ids.every((id, i) => i === 0 || id < ids[i - 1])).toBe(true);
    }
    expect((await json(`/v1/wallets/${UNKNOWN_WALLET}/wins`)).data).toEqual([]);
  });

  it('answers 404 not_found for unknown rounds on every round-scoped endpoint', async () => {
    for (const url of [
      '/v1/rounds/99',
      '/v1/rounds/99/tickets',
      '/v1/rounds/99/wins',
      `/v1/wallets/${UNKNOWN_WALLET}/tickets/rounds/99`,
      `/v1/wallets/${UNKNOWN_WALLET}/wins/rounds/99`,
      '/v1/rounds/99999999999999999999999999',
    ]) {
      const response = await api.request(url);
      expect([url, response.statusCode, response.json().error.code]).toEqual([url, 404, 'not_found']);
    }
  });

  it('serves settled rounds with ETag and Cache-Control, and 304 on If-None-Match', async () => {
    const first = await api.request('/v1/rounds/1');
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await api.request({ method: 'GET', url: '/v1/rounds/1', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // RFC 9110 §8.6: a 304's Content-Length could only be the 200's; a cache merging a 0 would empty its copy
    expect(again.headers['content-length']).toBeUndefined();
    expect(again.headers['etag']).toBe(etag);
    expect(again.headers['x-ratelimit-remaining']).toBeDefined();
    const tickets = await api.request('/v1/rounds/1/tickets?limit=3');
    expect(tickets.headers['cache-control']).toBe('public, max-age=60');
    const wins = await api.request('/v1/rounds/1/wins');
    expect(wins.headers['etag']).toBeDefined();
    const changed = await api.request({ method: 'GET', url: '/v1/rounds/1', headers: { 'if-none-match': '"other"' } });
    expect(changed.statusCode).toBe(200);
  });

  it('does not mark the active round or its tickets cacheable', async () => {
    for (const url of ['/v1/rounds/3', '/v1/rounds/3/tickets', '/v1/rounds/active']) {
      const response = await api.request(url);
      expect(response.headers['etag']).toBeUndefined();
      expect(response.headers['cache-control']).toBeUndefined();
    }
  });

  it('answers HEAD like GET without a body, errors and revalidations included', async () => {
    // RFC 9110 §8.6: a HEAD's Content-Length, when sent, is the length of the body GET would send
    for (const url of ['/v1/rounds/1', '/v1/rounds/99', '/v1/rounds/abc', '/v1/no-such-route', '/v1/rounds/%zz']) {
      const get = await api.request({ method: 'GET', url });
      const head = await api.request({ method: 'HEAD', url });
      expect([url, head.statusCode, head.body, head.headers['content-length']]).toEqual([
        url,
        get.statusCode,
        '',
        String(Buffer.byteLength(get.body)),
      ]);
    }
    // a cache revalidating with HEAD gets the 304 a GET gets
    for (const url of ['/v1/rounds/1', '/v1/rounds/1/tickets?limit=2', '/v1/rounds/1/wins']) {
      const get = await api.request({ method: 'GET', url });
      const etag = String(get.headers['etag']);
      const head = await api.request({ method: 'HEAD', url, headers: { 'if-none-match': etag } });
      expect([url, head.statusCode, head.body, head.headers['etag'], head.headers['cache-control']]).toEqual([
        url,
        304,
        '',
        etag,
        get.headers['cache-control'],
      ]);
      expect(head.headers['x-ratelimit-remaining']).toBeDefined();
    }
  });

  it('allows any origin to GET, and answers CORS preflights', async () => {
    const simple = await api.request({ method: 'GET', url: '/v1/rounds', headers: { origin: 'https://example.org' } });
    expect(simple.headers['access-control-allow-origin']).toBe('*');
    expect(String(simple.headers['access-control-expose-headers'])).toContain('X-RateLimit-Remaining');
    const preflight = await api.app
      .getHttpAdapter()
      .getInstance()
      .inject({
        method: 'OPTIONS',
        url: '/v1/rounds',
        headers: {
          origin: 'https://example.org',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
    expect(preflight.statusCode).toBe(204);
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('Authorization');
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD');
    expect(preflight.headers['access-control-max-age']).toBe('86400');
    // a browser's own request, before the one it guards: never counted, but its budget is told
    // (apps/api/README.md, rate limits)
    expect(preflight.headers['x-ratelimit-tier']).toBe('anonymous');
    expect(preflight.body).toBe('');
    // the same answer on every group's paths and on none, and no `Vary: Origin`: the origin never matters
    for (const url of ['/api/v1/daily-ticket-pool/rounds/active', '/health/live', '/nowhere']) {
      const elsewhere = await api.app
        .getHttpAdapter()
        .getInstance()
        .inject({
          method: 'OPTIONS',
          url,
          headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
        });
      expect([url, elsewhere.statusCode, elsewhere.headers['access-control-allow-origin']]).toEqual([url, 204, '*']);
    }
    expect(simple.headers['vary']).toBeUndefined();
    // refusals and errors are readable cross-origin too: a browser client sees their codes and limits
    const origin = { origin: 'https://example.org' };
    for (const [method, url, headers, status] of [
      ['GET', '/v1/nope', origin, 404],
      ['POST', '/v1/rounds', origin, 405],
      ['GET', '/v1/rounds', { ...origin, authorization: 'Bearer lt_live_' + 'Z'.repeat(22) }, 401],
    ] as const) {
      const refused = await api.request({ method, url, headers });
      expect([url, refused.statusCode, refused.headers['access-control-allow-origin']]).toEqual([url, status, '*']);
      expect(String(refused.headers['access-control-expose-headers'])).toContain('X-RateLimit-Remaining');
    }
  });

  it('answers an OPTIONS that is not a preflight like any other method: 405 on a path, 404 elsewhere', async () => {
    for (const headers of [{}, { origin: 'https://example.org' }]) {
      const unsupported = await api.request({ method: 'OPTIONS', url: '/v1/rounds', headers });
      expect(unsupported.statusCode).toBe(405);
      expect(unsupported.headers['allow']).toBe('GET, HEAD');
      expect(unsupported.json().error.code).toBe('method_not_allowed');
      expect(unsupported.headers['x-ratelimit-remaining']).toBeDefined();
    }
    const unknown = await api.request({ method: 'OPTIONS', url: '/v1/nope' });
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'not_found']);
  });
});
