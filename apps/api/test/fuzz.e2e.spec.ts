import { encodeCursor } from '@lottery/domain';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { StubApiKeys } from './support/stub-api-keys';
import { startTestApp, type TestApp } from './support/test-app';

const KEY = 'lt_live_' + 'F'.repeat(22);
const REVOKED = 'lt_live_' + 'X'.repeat(22);
const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));

const printable = (maxLength = 40) => fc.string({ unit: fc.constantFrom(...PRINTABLE), maxLength });
const digits = fc.oneof(fc.nat({ max: 200 }).map(String), fc.bigInt({ min: 0n, max: 2n ** 300n }).map(String));
const address = fc.oneof(
  fc.stringMatching(/^0x[0-9a-fA-F]{40}$/),
  fc.stringMatching(/^(0x)?[0-9a-fA-Fg-z]{0,42}$/),
  printable().map(encodeURIComponent),
);
const roundId = fc.oneof(digits, printable(12).map(encodeURIComponent), fc.constant('%zz'));
const segment = fc.oneof(
  fc.constantFrom('v1', 'rounds', 'wallets', 'tickets', 'wins', 'stats', 'active', 'health', '..', ''),
  printable(12).map(encodeURIComponent),
  fc.constantFrom('%', '%e9', '%00', '%2F'),
);
const path = fc.oneof(
  fc.constantFrom('/v1/rounds/active', '/v1/rounds', '/v1/openapi.json', '/health/live', '/health/ready', '/metrics'),
  roundId.map((id) => `/v1/rounds/${id}`),
  fc.tuple(roundId, fc.constantFrom('tickets', 'wins')).map(([id, list]) => `/v1/rounds/${id}/${list}`),
  fc.tuple(address, fc.constantFrom('stats', 'tickets', 'wins')).map(([a, r]) => `/v1/wallets/${a}/${r}`),
  fc
    .tuple(address, fc.constantFrom('tickets', 'wins'), roundId)
    .map(([a, list, id]) => `/v1/wallets/${a}/${list}/rounds/${id}`),
  fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
);
// cursors of lists the paths above reach, so that some of them are accepted
const cursorList = fc.constantFrom('/v1/rounds', '/v1/rounds/1/tickets', '/v1/rounds/1/wins', '/v1/rounds/2/wins');
const queryValue = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.tuple(cursorList, fc.bigInt({ min: 0n, max: 2n ** 100n })).map(([list, n]) => encodeCursor(list, [n])),
  fc
    .tuple(cursorList, fc.bigInt({ min: 0n, max: 2n ** 80n }), fc.bigInt({ min: 0n, max: 2n ** 64n }))
    .map(([list, amount, id]) => encodeCursor(list, [amount, id])),
  printable(20),
);
const query = fc
  .array(fc.tuple(fc.constantFrom('limit', 'cursor', 'x', '__proto__', 'limit'), queryValue), { maxLength: 4 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));
const headers = fc.record(
  {
    authorization: fc.oneof(
      fc.constantFrom(`Bearer ${KEY}`, `Bearer ${REVOKED}`, 'Bearer', `bearer lt_test_${'a'.repeat(22)}`),
      printable().map((s) => `Bearer ${s}`),
      printable(),
    ),
    'x-request-id': printable(140),
    'if-none-match': printable(),
    'x-forwarded-for': printable(30),
    origin: fc.constantFrom('https://example.org', 'null'),
    'access-control-request-method': fc.constantFrom('GET', 'POST'),
  },
  { requiredKeys: [] },
);

// Read models: InMemoryReadModels (support/); keys: StubApiKeys; limits high enough never to trigger.
describe('fuzzing paths, queries and headers in-process', () => {
  let api: TestApp;
  const keys = new StubApiKeys();
  keys.add(KEY);
  keys.add(REVOKED, { revokedAt: new Date() });

  beforeAll(async () => {
    api = await startTestApp({ apiKeys: keys });
  });
  afterAll(() => api.close());

  it('never answers 5xx, and every error is the envelope with the X-Request-Id', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), path, query, headers, async (method, p, q, h) => {
        const url = q === '' ? p : `${p}?${q}`;
        const options: InjectOptions = { method, url, headers: h };
        // CORS answers a browser's preflight itself; every other response (a bare OPTIONS included) is
        // checked against the OpenAPI document.
        const preflight =
          method === 'OPTIONS' && h.origin !== undefined && h['access-control-request-method'] !== undefined;
        const response = preflight ? await api.app.inject(options) : await api.request(options);
        seen.set(response.statusCode, (seen.get(response.statusCode) ?? 0) + 1);
        expect(response.statusCode).toBeLessThan(500);
        const requestId = response.headers['x-request-id'];
        expect(typeof requestId).toBe('string');
        if (response.statusCode >= 400 && method !== 'HEAD') {
          const body = response.json();
          expect(Object.keys(body)).toEqual(['error']);
          expect(body.error).toEqual({ code: expect.any(String), message: expect.any(String), request_id: requestId });
        }
      }),
      {
        numRuns: 2000,
        // once found by a CI run: the client resolves the dot segment, so the server answers for /v1/wallets/stats
        examples: [['GET', '/v1/wallets/./stats', '', {}]],
      },
    );
    // The generators reach the interesting answers, not just one kind of 404.
    for (const status of [200, 400, 401, 403, 404, 405]) expect(seen.get(status) ?? 0).toBeGreaterThan(10);
    // ~3 s alone; room for the CPU being shared with other suites.
  }, 60_000);
});
