import type { ReadModelQueries } from '@lottery/persistence';
import type { ApiKeyLookup } from '../src/auth/api-key-lookup';
import type { TierLimits } from '../src/rate-limit/tier-limits';
import { InMemoryReadModels } from './support/in-memory-read-models';
import { lotteryDataset, UNKNOWN_WALLET, WALLETS } from './support/lottery-fixtures';
import { OpenApiValidator } from './support/openapi-validator';
import { poolDataset } from './support/pool-fixtures';
import { StubApiKeys } from './support/stub-api-keys';
import { startTestApp, type TestApp } from './support/test-app';

const BASE = '/api/v1/daily-ticket-pool';
const KEY = 'lt_live_' + 'P'.repeat(22);
const REVOKED = 'lt_live_' + 'R'.repeat(22);
const OTHER_ENV = 'lt_test_' + 'P'.repeat(22);
const ROUND_VIEW = ['roundId', 'transaction', 'entries', 'totalEntries'];
const WITH_WINNER = [...ROUND_VIEW, 'winner'];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Json = Record<string, unknown> & { entries: { address: string; id: number }[] };

// Read models: InMemoryReadModels with hand-made pool data (support/pool-fixtures), so every edge case of
// the spec is a line of data; projected-read-models.e2e runs the same endpoints on projected Postgres
// data. Keys: StubApiKeys (api-keys.e2e covers keys on Postgres).
describe('free daily pool API', () => {
  const keys = new StubApiKeys();
  keys.add(KEY);
  keys.add(REVOKED, { revokedAt: new Date() });
  keys.add(OTHER_ENV, { environment: 'test' });
  const apps: TestApp[] = [];
  let validator: OpenApiValidator;

  const start = async (readModels: ReadModelQueries, rateLimits?: TierLimits) => {
    const app = await startTestApp({ readModels, apiKeys: keys, rateLimits });
    apps.push(app);
    return app;
  };
  let api: TestApp;

  /** GETs with the key header and checks the response against the served /api/v1 document. */
  const get = async (path: string, options: { app?: TestApp; headers?: Record<string, string> } = {}) => {
    const url = `${BASE}${path}`;
    const response = await (options.app ?? api).request({
      method: 'GET',
      url,
      headers: options.headers ?? { apikey: KEY },
    });
    validator.check({
      method: 'GET',
      url,
      statusCode: response.statusCode,
      headers: response.headers,
      body: response.body,
    });
    return { status: response.statusCode, body: response.json() as Json, headers: response.headers };
  };
  const expectError = async (path: string, status: number, error: string, headers?: Record<string, string>) => {
    const response = await get(path, { headers });
    expect({ path, status: response.status, body: response.body }).toEqual({ path, status, body: { error } });
  };

  beforeAll(async () => {
    api = await start(new InMemoryReadModels({ ...lotteryDataset(), pool: poolDataset() }));
    const document = await api.request('/api/v1/openapi.json');
    validator = new OpenApiValidator(document.json());
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  describe('API key', () => {
    it('accepts any active key of this environment, in the apikey header or query parameter', async () => {
      expect((await get('/active-round')).status).toBe(200);
      expect((await get(`/active-round?apikey=${KEY}`, { headers: {} })).status).toBe(200);
    });

    it('answers 401 "Invalid API key" for a missing, unknown, revoked or other-environment key', async () => {
      await expectError('/active-round', 401, 'Invalid API key', {});
      await expectError('/round/1', 401, 'Invalid API key', { apikey: 'lt_live_' + 'U'.repeat(22) });
      await expectError('/round', 401, 'Invalid API key', { apikey: REVOKED });
      await expectError(`/${WALLETS[0]}`, 401, 'Invalid API key', { apikey: OTHER_ENV });
      await expectError(`/active-round?apikey=nonsense`, 401, 'Invalid API key', {});
      // A bearer Data API key is not the pool's scheme.
      await expectError('/active-round', 401, 'Invalid API key', { authorization: `Bearer ${KEY}` });
    });

    it('checks the key before the parameters', async () => {
      await expectError('/round/abc', 401, 'Invalid API key', {});
    });

    it('answers a path that does not decode 400 "Invalid request" before the key, uncharged (no route to charge)', async () => {
      const urls = [`${BASE}/round/%zz`, `${BASE}/0x%zz`, '/api/v1/giveaways/partner-free-tickets/0x%zz'];
      for (const url of urls) {
        const response = await api.request({ method: 'GET', url, headers: {} });
        expect([url, response.statusCode, response.json()]).toEqual([url, 400, { error: 'Invalid request' }]);
        expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
      }
    });
  });

  describe("rate limits (not in the spec: the Data API's)", () => {
    const limited = () =>
      start(new InMemoryReadModels({ ...lotteryDataset(), pool: poolDataset() }), {
        authenticated: { perMinute: 3, perDay: 1_000 },
        anonymous: { perMinute: 2, perDay: 1_000 },
      });

    it("charges a key's pool requests to the budget its Data API requests use, and answers 429 beyond it", async () => {
      const app = await limited();
      const first = await get('/active-round', { app });
      expect([first.status, first.headers['x-ratelimit-tier'], first.headers['x-ratelimit-remaining']]).toEqual([
        200,
        'authenticated',
        '2',
      ]);
      const data = await app.request({ url: '/v1/rounds', headers: { authorization: `Bearer ${KEY}` } });
      expect([data.statusCode, data.headers['x-ratelimit-remaining']]).toEqual([200, '1']);
      expect((await get('/round/1', { app })).status).toBe(200);
      const refused = await get(`/${WALLETS[0]}`, { app });
      expect([refused.status, refused.body]).toEqual([429, { error: 'Rate limit exceeded' }]);
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });

    it('charges a key it cannot check (the accounts database out) to its IP, and answers 503 with the headers', async () => {
      const down: ApiKeyLookup = {
        findByKey: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
      };
      const app = await startTestApp({
        readModels: new InMemoryReadModels({ ...lotteryDataset(), pool: poolDataset() }),
        apiKeys: down,
        rateLimits: { authenticated: { perMinute: 3, perDay: 1_000 }, anonymous: { perMinute: 1, perDay: 1_000 } },
      });
      apps.push(app);
      const first = await get('/active-round', { app });
      expect([first.status, first.body, first.headers['x-ratelimit-tier']]).toEqual([
        503,
        { error: 'Service unavailable' },
        'anonymous',
      ]);
      expect((await get('/active-round', { app })).status).toBe(429);
    });

    it("charges a request without a valid key to its IP's anonymous budget, before its 401", async () => {
      const app = await limited();
      const bad = { apikey: 'lt_live_' + 'U'.repeat(22) };
      const first = await get('/active-round', { app, headers: bad });
      expect([first.status, first.headers['x-ratelimit-tier'], first.headers['x-ratelimit-limit']]).toEqual([
        401,
        'anonymous',
        '2',
      ]);
      expect((await get('/round', { app, headers: {} })).status).toBe(401);
      // a valid key has its own budget
      expect((await get('/round', { app })).status).toBe(200);
      expect((await get('/round', { app, headers: bad })).body).toEqual({ error: 'Rate limit exceeded' });
    });
  });

  describe('GET /active-round', () => {
    it('returns the active round: its latest transaction, every entry, and the total', async () => {
      const { status, body } = await get('/active-round');
      expect(status).toBe(200);
      expect(Object.keys(body)).toEqual(ROUND_VIEW);
      expect(body).toEqual({
        roundId: 4,
        transaction: {
          id: 4,
          transactionHash: `0x${'a'.repeat(63)}4`,
          blockNumber: 1004,
          timestamp: expect.stringMatching(TIMESTAMP),
        },
        entries: expect.any(Array),
        totalEntries: 4,
      });
      expect(body.entries.map((e) => e.id)).toEqual([106, 107, 108, 109]);
      expect(body.entries[0]).toEqual({ id: 106, address: WALLETS[0], timestamp: '2026-01-01T01:46:00.007Z' });
    });

    it('limits entries to the wallet (any letter case in, lowercase out), totalEntries unfiltered', async () => {
      const { body } = await get(`/active-round/${WALLETS[2].toUpperCase().replace('0X', '0x')}`);
      expect(body).toMatchObject({ roundId: 4, totalEntries: 4 });
      expect(body.entries.map((e) => [e.id, e.address])).toEqual([
        [107, WALLETS[2]],
        [109, WALLETS[2]],
      ]);
      expect((await get(`/active-round/${UNKNOWN_WALLET}`)).body).toMatchObject({ entries: [], totalEntries: 4 });
    });

    it('answers 200 {message} when no round is active, with or without a wallet', async () => {
      const app = await start(
        new InMemoryReadModels({ ...lotteryDataset(), pool: poolDataset({ activeRound: false }) }),
      );
      for (const path of ['/active-round', `/active-round/${WALLETS[0]}`]) {
        const response = await get(path, { app });
        expect([response.status, response.body]).toEqual([200, { message: 'No active round' }]);
      }
    });

    it('answers 400 "Invalid wallet address" for a malformed address', async () => {
      for (const bad of ['0x123', `${WALLETS[0]}0`, WALLETS[0].slice(2), `0x${'g'.repeat(40)}`]) {
        await expectError(`/active-round/${bad}`, 400, 'Invalid wallet address');
      }
    });
  });

  describe('GET /round', () => {
    it('returns the latest completed round with its winner (null until selected)', async () => {
      const { status, body } = await get('/round');
      expect(status).toBe(200);
      expect(Object.keys(body)).toEqual(WITH_WINNER);
      expect(body).toEqual({ roundId: 3, transaction: null, entries: [], totalEntries: 0, winner: null });
    });

    it('answers 404 "Round not found" before any round completed', async () => {
      const app = await start(new InMemoryReadModels({ ...lotteryDataset(), pool: poolDataset({ completed: false }) }));
      const response = await get('/round', { app });
      expect([response.status, response.body]).toEqual([404, { error: 'Round not found' }]);
    });
  });

  describe('GET /round/{roundId}[/{walletAddress}]', () => {
    it('names the winner of a completed round', async () => {
      const { body } = await get('/round/1');
      expect(Object.keys(body)).toEqual(WITH_WINNER);
      expect(body).toMatchObject({
        roundId: 1,
        totalEntries: 3,
        transaction: { id: 1, blockNumber: 1001 },
        winner: { id: 102, address: WALLETS[1], timestamp: expect.stringMatching(TIMESTAMP) },
      });
      expect((await get('/round/2')).body).toMatchObject({ roundId: 2, winner: null });
    });

    it('leaves winner out while the round is active', async () => {
      const { body } = await get('/round/4');
      expect(Object.keys(body)).toEqual(ROUND_VIEW);
      expect((await get(`/round/4/${WALLETS[0]}`)).body).not.toHaveProperty('winner');
    });

    it("limits entries to the wallet's, totalEntries unfiltered, winner kept", async () => {
      const { body } = await get(`/round/1/${WALLETS[2]}`);
      expect(body).toMatchObject({ roundId: 1, totalEntries: 3, winner: { id: 102 } });
      expect(body.entries.map((e) => e.id)).toEqual([103]);
      expect((await get('/round/0004')).body).toMatchObject({ roundId: 4 });
    });

    it('answers 400 "Invalid round id" for anything but a non-negative integer up to 2^53−1', async () => {
      for (const bad of ['abc', '-1', '1.5', '1e3', '+4', '0x4', '%20', String(2 ** 53), '9'.repeat(80)]) {
        await expectError(`/round/${bad}`, 400, 'Invalid round id');
        await expectError(`/round/${bad}/${WALLETS[0]}`, 400, 'Invalid round id');
      }
    });

    it('answers 404 "Round not found" for a well-formed id of no round', async () => {
      await expectError('/round/0', 404, 'Round not found');
      await expectError(`/round/${2 ** 53 - 1}`, 404, 'Round not found');
      await expectError(`/round/99/${WALLETS[0]}`, 404, 'Round not found');
    });

    it('answers 400 "Invalid wallet address" for a bad wallet of a valid round id', async () => {
      await expectError('/round/1/0x12', 400, 'Invalid wallet address');
    });

    it('reports the round id when both parameters are bad', async () => {
      await expectError('/round/abc/0x12', 400, 'Invalid round id');
    });

    it('answers a mistyped path elsewhere under /api/v1 in the {error} format too', async () => {
      for (const url of ['/api/v1/giveaways/foo', '/api/v1/daily-ticket-pools', '/api/v1/nope']) {
        const response = await api.request({ url, headers: { apikey: KEY } });
        expect([url, response.statusCode, response.json()]).toEqual([url, 404, { error: 'Not found' }]);
      }
    });

    it('answers in its own format when the path escapes unreserved characters (%2D is "-")', async () => {
      const escaped = '/api/v1/daily%2Dticket-pool/round';
      const request = (url: string, headers: Record<string, string> = {}) =>
        api.request({ url, headers }).then((r) => [r.statusCode, r.json()]);
      expect(await request(`${escaped}/abc`, { apikey: KEY })).toEqual([400, { error: 'Invalid round id' }]);
      expect(await request(`${escaped}/1`)).toEqual([401, { error: 'Invalid API key' }]);
      expect(await request(`${escaped}/%31`, { apikey: KEY })).toMatchObject([200, { roundId: 1 }]);
    });
  });

  describe('GET /{walletAddress}', () => {
    it("lists the wallet's entries across rounds with their jackpot round", async () => {
      const { status, body } = await get(`/${WALLETS[0].toUpperCase().replace('0X', '0x')}`);
      expect(status).toBe(200);
      expect(Object.keys(body)).toEqual(['entries']);
      expect(body.entries).toEqual([
        { id: 101, address: WALLETS[0], timestamp: expect.stringMatching(TIMESTAMP), jackpotRoundId: 1 },
        { id: 105, address: WALLETS[0], timestamp: expect.stringMatching(TIMESTAMP), jackpotRoundId: 2 },
        { id: 106, address: WALLETS[0], timestamp: expect.stringMatching(TIMESTAMP), jackpotRoundId: 4 },
      ]);
      expect((await get(`/${UNKNOWN_WALLET}`)).body).toEqual({ entries: [] });
    });

    it('answers 400 "Invalid wallet address"', async () => {
      await expectError('/not-a-wallet', 400, 'Invalid wallet address');
    });
  });

  describe('everything else under the prefix', () => {
    it('answers unknown paths and methods in the pool format', async () => {
      const deeper = await api.request({ url: `${BASE}/round/1/${WALLETS[0]}/more`, headers: { apikey: KEY } });
      expect([deeper.statusCode, deeper.json()]).toEqual([404, { error: 'Not found' }]);
      const post = await api.request({ method: 'POST', url: `${BASE}/active-round`, headers: { apikey: KEY } });
      expect([post.statusCode, post.json(), post.headers['allow']]).toEqual([
        405,
        { error: 'Method not allowed' },
        'GET, HEAD',
      ]);
      const head = await api.request({ method: 'HEAD', url: `${BASE}/round/abc`, headers: { apikey: KEY } });
      expect([head.statusCode, head.body]).toEqual([400, '']);
    });

    it('checks the key of, charges and puts the rate-limit headers on its 404s and 405s like any pool answer', async () => {
      const deeper = { url: `${BASE}/round/1/${WALLETS[0]}/more` };
      const keyless = await api.request(deeper);
      expect([keyless.statusCode, keyless.json()]).toEqual([401, { error: 'Invalid API key' }]);
      const first = await api.request({ ...deeper, headers: { apikey: KEY } });
      const second = await api.request({ method: 'DELETE', url: `${BASE}/round/1`, headers: { apikey: KEY } });
      expect([first.statusCode, first.json()]).toEqual([404, { error: 'Not found' }]);
      expect([second.statusCode, second.json(), second.headers['allow']]).toEqual([
        405,
        { error: 'Method not allowed' },
        'GET, HEAD',
      ]);
      expect(first.headers['x-ratelimit-tier']).toBe('authenticated');
      expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
    });

    it('answers a path parameter left empty (a trailing slash) like any unknown path: key first, charged', async () => {
      for (const url of [`${BASE}/`, `${BASE}/round/`, `${BASE}/round//${WALLETS[0]}`, `${BASE}/active-round/`]) {
        const keyless = await api.request({ url });
        expect([url, keyless.statusCode, keyless.json()]).toEqual([url, 401, { error: 'Invalid API key' }]);
        const keyed = await api.request({ url, headers: { apikey: KEY } });
        expect([url, keyed.statusCode, keyed.json()]).toEqual([url, 404, { error: 'Not found' }]);
        expect(keyed.headers['x-ratelimit-tier']).toBe('authenticated');
      }
    });

    it('answers 500 "Internal server error" for a bug and 503 for an outage, never with details', async () => {
      const failing = (error: () => Error): ReadModelQueries =>
        Object.assign(new InMemoryReadModels(lotteryDataset()), {
          poolActiveRound: async () => {
            throw error();
          },
        });
      const buggy = await start(failing(() => new TypeError('secret stack detail')));
      const bug = await get('/active-round', { app: buggy });
      expect([bug.status, bug.body]).toEqual([500, { error: 'Internal server error' }]);
      const down = await start(
        failing(() => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
      );
      const outage = await get('/active-round', { app: down });
      expect([outage.status, outage.body, outage.headers['retry-after']]).toEqual([
        503,
        { error: 'Service unavailable' },
        '1',
      ]);
    });
  });
});
