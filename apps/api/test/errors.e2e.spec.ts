import { encodeCursor } from '@lottery/domain';
import type { ReadModelQueries } from '@lottery/persistence';
import { InMemoryReadModels } from './support/in-memory-read-models';
import { lotteryDataset } from './support/lottery-fixtures';
import { StubApiKeys } from './support/stub-api-keys';
import { startTestApp, type TestApp } from './support/test-app';

const KEY = 'lt_live_' + 'A'.repeat(22);
const REVOKED = 'lt_live_' + 'R'.repeat(22);
const UNKNOWN = 'lt_live_' + 'U'.repeat(22);
const OTHER_ENV = 'lt_test_' + 'A'.repeat(22);
const WALLET = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';

/** Read models whose every query fails like the given error. */
function failingReadModels(error: () => Error): ReadModelQueries {
  return new Proxy(new InMemoryReadModels(lotteryDataset()), {
    get: (target, property, receiver) =>
      typeof Reflect.get(target, property, receiver) === 'function'
        ? async () => {
            throw error();
          }
        : Reflect.get(target, property, receiver),
  });
}

// Read models: InMemoryReadModels (support/); keys: StubApiKeys. api-keys.e2e covers keys on Postgres.
describe('Data API errors', () => {
  let api: TestApp;
  const keys = new StubApiKeys();
  keys.add(KEY);
  keys.add(REVOKED, { revokedAt: new Date() });

  /** Requests the URL and checks the error envelope, status, code and rate-limit headers. */
  const expectError = async (
    request: { url: string; method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; headers?: Record<string, string> },
    status: number,
    code: string,
  ) => {
    const response = await api.request({ method: request.method ?? 'GET', url: request.url, headers: request.headers });
    const body = response.json();
    expect({ url: request.url, status: response.statusCode, code: body.error?.code }).toEqual({
      url: request.url,
      status,
      code,
    });
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'request_id']);
    expect(body.error.request_id).toBe(response.headers['x-request-id']);
    expect(response.headers['x-ratelimit-tier']).toBeDefined();
    return response;
  };

  beforeAll(async () => {
    api = await startTestApp({ apiKeys: keys });
  });
  afterAll(() => api.close());

  it('400 invalid_request: malformed round id, limit or repeated parameters', async () => {
    await expectError({ url: '/v1/rounds/abc' }, 400, 'invalid_request');
    await expectError({ url: '/v1/rounds/-1/tickets' }, 400, 'invalid_request');
    await expectError({ url: `/v1/rounds/${'x'.repeat(250)}` }, 400, 'invalid_request');
    await expectError({ url: `/v1/wallets/${WALLET}/wins/rounds/1x` }, 400, 'invalid_request');
    for (const limit of ['abc', '1.5', '', '1e3', '+5']) {
      await expectError({ url: `/v1/rounds?limit=${limit}` }, 400, 'invalid_request');
    }
    await expectError({ url: '/v1/rounds?limit=1&limit=2' }, 400, 'invalid_request');
    await expectError(
      { url: `/v1/rounds?cursor=${encodeCursor('/v1/rounds', [2n])}&cursor=x` },
      400,
      'invalid_request',
    );
  });

  it('400 invalid_request for a URL that cannot be decoded', async () => {
    const response = await api.request('/v1/rounds/%zz');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_request');
    expect(response.headers['x-request-id']).toBe(response.json().error.request_id);
  });

  it('400 invalid_address: not 0x followed by 40 hex characters', async () => {
    for (const address of [
      '0x123',
      WALLET.slice(2),
      `${WALLET}0`,
      '0x' + 'g'.repeat(40),
      'vitalik.eth',
      WALLET.repeat(6),
    ]) {
      await expectError({ url: `/v1/wallets/${address}/stats` }, 400, 'invalid_address');
      await expectError({ url: `/v1/wallets/${address}/tickets/rounds/1` }, 400, 'invalid_address');
    }
  });

  it('a request with several bad parts is told about the first: the path in order, then the query', async () => {
    const bad = '/v1/wallets/0x12/tickets/rounds/abc?limit=x';
    expect((await expectError({ url: bad }, 400, 'invalid_address')).json().error.message).toMatch(/address/);
    for (const url of [
      `/v1/wallets/${WALLET}/wins/rounds/abc?limit=x`,
      '/v1/rounds/abc/tickets?limit=x',
      '/v1/rounds/abc/wins?cursor=a&cursor=b',
    ]) {
      expect((await expectError({ url }, 400, 'invalid_request')).json().error.message).toMatch(/^roundId/);
    }
    await expectError({ url: '/v1/wallets/0x12/wins?limit=x' }, 400, 'invalid_address');
  });

  it('404 for a round that does not exist before 400 for a bad cursor, on every round-scoped list', async () => {
    for (const url of [
      '/v1/rounds/99/tickets?cursor=abc',
      '/v1/rounds/99/wins?cursor=abc',
      `/v1/wallets/${WALLET}/tickets/rounds/99?cursor=abc`,
      `/v1/wallets/${WALLET}/wins/rounds/99?cursor=abc`,
    ]) {
      await expectError({ url }, 404, 'not_found');
    }
  });

  it('400 invalid_cursor: foreign, tampered, or wrong-shape cursors', async () => {
    const issued = (await api.request('/v1/rounds/1/tickets?limit=2')).json().next_cursor as string;
    const [version, key, check] = Buffer.from(issued, 'base64url').toString('utf8').split('.');
    const edited = Buffer.from(`${version}.${BigInt(key) + 1n}.${check}`).toString('base64url');
    expect((await api.request(`/v1/rounds/1/tickets?limit=2&cursor=${issued}`)).statusCode).toBe(200);
    const OTHER = '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359';
    for (const [url, what] of [
      ['/v1/rounds?cursor=', 'empty'],
      ['/v1/rounds?cursor=!!!', 'outside the alphabet'],
      ['/v1/rounds?cursor=abc', 'not ours'],
      [`/v1/rounds/1/tickets?cursor=${encodeCursor('/v1/rounds/1/wins', [5n, 9n])}`, 'a wins cursor on tickets'],
      [`/v1/rounds/1/wins?cursor=${encodeCursor('/v1/rounds/1/tickets', [5n])}`, 'a tickets cursor on wins'],
      [`/v1/rounds/1/tickets?cursor=${encodeCursor('/v1/rounds', [3n])}`, 'a rounds cursor on tickets'],
      [`/v1/rounds/2/tickets?cursor=${issued}`, "round 1's tickets cursor on round 2"],
      [`/v1/rounds/1/tickets?cursor=${edited}`, 'a key edited by hand'],
      [
        `/v1/wallets/${OTHER}/tickets?cursor=${encodeCursor(`/v1/wallets/${WALLET}/tickets`, [5n])}`,
        "another wallet's",
      ],
      [
        `/v1/wallets/${WALLET}/wins?cursor=${encodeCursor(`/v1/wallets/${WALLET}/wins/rounds/1`, [5n])}`,
        'one round only',
      ],
      [`/v1/rounds?cursor=${encodeCursor('/v1/rounds', [2n ** 63n])}`, 'an id no row can have'],
      [`/v1/rounds?cursor=${encodeCursor('/v1/rounds', [2n])}=`, 'padding'],
    ]) {
      const response = await api.request(url);
      expect([what, response.statusCode, response.json().error.code]).toEqual([what, 400, 'invalid_cursor']);
    }
  });

  it('401 unauthorized: an Authorization header that is not "Bearer <key>"', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', `Bearer\t${KEY}`, KEY, `Bearer ${KEY} extra`]) {
      const response = await expectError({ url: '/v1/rounds', headers: { authorization } }, 401, 'unauthorized');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
    }
  });

  it('401 invalid_api_key: a bearer key matching no known key', async () => {
    // a partner key is a key of another API, not of another environment
    const partnerKey = 'lt_partner_' + 'P'.repeat(22);
    for (const token of [UNKNOWN, 'not-a-key', 'xx_live_' + 'A'.repeat(22), KEY.slice(0, -1), partnerKey]) {
      const response = await expectError(
        { url: '/v1/rounds', headers: { authorization: `Bearer ${token}` } },
        401,
        'invalid_api_key',
      );
      expect(response.headers['x-ratelimit-tier']).toBe('anonymous');
    }
  });

  it('403 revoked_api_key and key_environment_mismatch', async () => {
    await expectError({ url: '/v1/rounds', headers: { authorization: `Bearer ${REVOKED}` } }, 403, 'revoked_api_key');
    await expectError(
      { url: '/v1/rounds', headers: { authorization: `Bearer ${OTHER_ENV}` } },
      403,
      'key_environment_mismatch',
    );
  });

  it('a valid key is served at the authenticated tier', async () => {
    const response = await api.request({
      method: 'GET',
      url: '/v1/rounds',
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-ratelimit-tier']).toBe('authenticated');
  });

  it('404 not_found: unknown paths and rounds', async () => {
    await expectError({ url: '/v1/rounds/42' }, 404, 'not_found');
    await expectError({ url: '/v1/nothing/here' }, 404, 'not_found');
    await expectError({ url: '/v1/rounds/1/tickets/extra' }, 404, 'not_found');
    await expectError({ url: '/v1' }, 404, 'not_found');
    // a path parameter left empty, for any method: no resource, answered like any unknown path
    for (const url of [
      '/v1/rounds/',
      '/v1/rounds//tickets?limit=1',
      `/v1/wallets//stats`,
      `/v1/wallets/${WALLET}/tickets/rounds/`,
    ]) {
      for (const method of ['GET', 'POST'] as const) await expectError({ url, method }, 404, 'not_found');
    }
    // the docs' own trailing-slash path is not a parameter: still served
    expect((await api.request('/v1/docs/')).statusCode).toBe(200);
    const outside = await api.request('/not-an-api');
    expect(outside.statusCode).toBe(404);
    expect(outside.json().error.code).toBe('not_found');
  });

  it('405 method_not_allowed with Allow on every Data API path', async () => {
    const paths = [
      '/v1/rounds/active',
      '/v1/rounds',
      '/v1/rounds/1',
      '/v1/rounds/1/tickets',
      '/v1/rounds/1/wins',
      `/v1/wallets/${WALLET}/stats`,
      `/v1/wallets/${WALLET}/tickets`,
      `/v1/wallets/${WALLET}/tickets/rounds/1`,
      `/v1/wallets/${WALLET}/wins`,
      `/v1/wallets/${WALLET}/wins/rounds/1`,
    ];
    for (const url of paths) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const response = await expectError({ url, method }, 405, 'method_not_allowed');
        expect(response.headers['allow']).toBe('GET, HEAD');
      }
    }
  });

  it('a body type Fastify cannot parse, or a QUERY without a body, gets the answer its path and method call for', async () => {
    for (const type of ['json', '/', 'a/b/c']) {
      const post = await expectError(
        { url: '/v1/rounds', method: 'POST', headers: { 'content-type': type } },
        405,
        'method_not_allowed',
      );
      expect(post.headers['allow']).toBe('GET, HEAD');
      await expectError(
        { url: '/v1/rounds/1', method: 'DELETE', headers: { 'content-type': type } },
        405,
        'method_not_allowed',
      );
    }
    const query = await api.request({ method: 'QUERY' as 'GET', url: '/v1/nope' });
    expect([query.statusCode, query.json().error.code, query.headers['x-ratelimit-tier']]).toEqual([
      404,
      'not_found',
      'anonymous',
    ]);
  });

  it('a path with escaped unreserved characters is the same path: 405 with Allow, 404, 400 as unescaped', async () => {
    const response = await expectError({ url: '/v1/%72ounds/1', method: 'POST' }, 405, 'method_not_allowed');
    expect(response.headers['allow']).toBe('GET, HEAD');
    await expectError({ url: '/v1/%72ounds/abc', headers: { authorization: `Bearer ${KEY}` } }, 400, 'invalid_request');
    await expectError({ url: '/v1/%72ounds/1/n%6Fpe' }, 404, 'not_found');
  });

  it('404 not_found: a round id of any size that names no round, beyond uint256 too (spec: "404 when absent")', async () => {
    await expectError({ url: `/v1/rounds/${2n ** 256n}` }, 404, 'not_found');
    await expectError({ url: `/v1/rounds/${'9'.repeat(250)}/tickets` }, 404, 'not_found');
    await expectError({ url: `/v1/rounds/${2n ** 256n}/wins` }, 404, 'not_found');
    await expectError({ url: `/v1/wallets/${WALLET}/wins/rounds/${2n ** 256n}` }, 404, 'not_found');
    await expectError({ url: `/v1/rounds/${2n ** 256n - 1n}` }, 404, 'not_found');
  });

  it('echoes a valid X-Request-Id and replaces an unacceptable one', async () => {
    const echoed = await api.request({
      method: 'GET',
      url: '/v1/rounds/42',
      headers: { 'x-request-id': 'trace-abc.123' },
    });
    expect(echoed.headers['x-request-id']).toBe('trace-abc.123');
    expect(echoed.json().error.request_id).toBe('trace-abc.123');
    const replaced = await api.request({
      method: 'GET',
      url: '/v1/rounds',
      headers: { 'x-request-id': 'bad id\u00e9' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('503 upstream_unavailable when no round is active', async () => {
    const none = new InMemoryReadModels({ ...lotteryDataset(), rounds: lotteryDataset().rounds.slice(0, 2) });
    const app = await startTestApp({ readModels: none });
    try {
      const response = await app.request('/v1/rounds/active');
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('upstream_unavailable');
      expect(response.headers['retry-after']).toBe('1');
    } finally {
      await app.close();
    }
  });

  it('503 upstream_unavailable when the database is unreachable, 500 internal_error (no stack) on a bug', async () => {
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const down = await startTestApp({ readModels: failingReadModels(refused) });
    const buggy = await startTestApp({ readModels: failingReadModels(() => new TypeError('secret internals')) });
    try {
      const unavailable = await down.request('/v1/rounds');
      expect([unavailable.statusCode, unavailable.json().error.code]).toEqual([503, 'upstream_unavailable']);
      const broken = await buggy.request(`/v1/wallets/${WALLET}/stats`);
      expect([broken.statusCode, broken.json().error.code]).toEqual([500, 'internal_error']);
      expect(broken.body).not.toContain('secret internals');
      expect(broken.body).not.toContain('at ');
    } finally {
      await Promise.all([down.close(), buggy.close()]);
    }
  });
});
