import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { RawRequest } from './raw-http';

/** The keys a caller might send (made by the ops CLI for the run). */
export interface FuzzKeys {
  data: string;
  revoked: string;
  otherEnvironment: string;
  partner: string;
  disabledPartner: string;
}

export interface FuzzData {
  keys: FuzzKeys;
  /** Wallets and round ids that exist in the read models, so some requests reach real rows. */
  wallets: string[];
  rounds: string[];
}

/** Why a body must be refused with a 4xx; null for a body the API may accept or ignore. */
export type BadBody = 'malformed JSON' | 'oversized' | null;

export interface FuzzedRequest {
  /** Built when sent: an oversized body is megabytes, too much to keep for thousands of requests. */
  build(): RawRequest;
  badBody: BadBody;
  /** The request in a line, to reproduce a failure. */
  describe(): string;
}

/** Fastify's default body limit, which the API keeps. */
const BODY_LIMIT = 1_048_576;
const DAILY_POOL = '/api/v1/daily-ticket-pool';
const PARTNER = '/api/v1/giveaways/partner-free-tickets';
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
/** Methods that carry a body the API would parse. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const printable = (maxLength = 40) => fc.string({ unit: fc.constantFrom(...PRINTABLE), maxLength });
const unicode = (maxLength = 12) => fc.string({ unit: 'grapheme', maxLength });

/** A path segment: words the routes know, encoded junk, raw UTF-8, broken percent-encodings, overlong runs. */
const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('v1', 'rounds', 'wallets', 'tickets', 'wins', 'stats', 'active', 'round') },
  { weight: 2, arbitrary: printable(12).map(encodeURIComponent) },
  { weight: 2, arbitrary: unicode().map(encodeURIComponent) },
  // Raw (unencoded) UTF-8: Node's HTTP parser refuses it before the API sees the request.
  { weight: 1, arbitrary: fc.oneof({ weight: 9, arbitrary: fc.constant('é') }, { weight: 1, arbitrary: unicode() }) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%c0%af', '%00', '%2F', '%ff', '..', '.', '', '%2e%2e') },
  { weight: 1, arbitrary: fc.integer({ min: 150, max: 6_000 }).map((n) => 'a'.repeat(n)) },
);

export function fuzzedRequest(data: FuzzData): fc.Arbitrary<FuzzedRequest> {
  const address = fc.oneof(
    fc.constantFrom(...data.wallets),
    fc.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    fc.stringMatching(/^(0x)?[0-9a-fA-Fg-z]{0,44}$/),
    segment,
  );
  const roundId = fc.oneof(
    fc.constantFrom(...data.rounds),
    fc.bigInt({ min: -5n, max: 2n ** 300n }).map(String),
    fc.constantFrom('0', '-1', '1e3', '0x10', '1.5', ' 1', 'NaN', '%31'),
    segment,
  );
  const path = fc.oneof(
    // Data API (and whatever else falls back to its format)
    fc.constantFrom('/v1/rounds/active', '/v1/rounds', '/v1/openapi.json', '/v1/docs', '/health/live', '/metrics'),
    roundId.map((id) => `/v1/rounds/${id}`),
    fc.tuple(roundId, fc.constantFrom('tickets', 'wins')).map(([id, list]) => `/v1/rounds/${id}/${list}`),
    fc.tuple(address, fc.constantFrom('stats', 'tickets', 'wins')).map(([a, r]) => `/v1/wallets/${a}/${r}`),
    fc
      .tuple(address, fc.constantFrom('tickets', 'wins'), roundId)
      .map(([a, list, id]) => `/v1/wallets/${a}/${list}/rounds/${id}`),
    // daily pool
    fc.constantFrom(`${DAILY_POOL}/active-round`, `${DAILY_POOL}/round`, DAILY_POOL),
    address.map((a) => `${DAILY_POOL}/active-round/${a}`),
    roundId.map((id) => `${DAILY_POOL}/round/${id}`),
    fc.tuple(roundId, address).map(([id, a]) => `${DAILY_POOL}/round/${id}/${a}`),
    address.map((a) => `${DAILY_POOL}/${a}`),
    // partner free tickets
    address.map((a) => `${PARTNER}/${a}`),
    fc.tuple(address, segment).map(([a, s]) => `${PARTNER}/${a}/${s}`),
    fc.constant(PARTNER),
    // anywhere
    fc
      .tuple(fc.constantFrom('', '/api', '/api/v1', '/v1', DAILY_POOL, PARTNER), fc.array(segment, { maxLength: 6 }))
      .map(([base, parts]) => `${base}/${parts.join('/')}`),
  );
  const queryValue = fc.oneof(
    fc.integer({ min: -1000, max: 1000 }).map(String),
    printable(30).map(encodeURIComponent),
    unicode().map(encodeURIComponent),
    fc.constantFrom('%', '%zz', '', 'null', '[]', 'eyJ9', data.keys.partner, data.keys.data),
    fc.integer({ min: 500, max: 5_000 }).map((n) => 'c'.repeat(n)),
  );
  const query = fc
    .array(
      fc.tuple(fc.constantFrom('limit', 'cursor', 'apikey', 'x', '__proto__', 'constructor', 'a[b]', ''), queryValue),
      { maxLength: 4 },
    )
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));

  const key = fc.constantFrom(...Object.values(data.keys));
  const headerValue = fc.oneof(
    printable(60),
    unicode(20),
    fc.integer({ min: 1_000, max: 4_000 }).map((n) => 'h'.repeat(n)),
  );
  const headers = fc.record(
    {
      authorization: fc.oneof(
        key.map((k) => `Bearer ${k}`),
        fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `bearer lt_test_${'a'.repeat(22)}`),
        headerValue.map((v) => `Bearer ${v}`),
        headerValue,
      ),
      apikey: fc.oneof(key, headerValue),
      'x-forwarded-for': fc.oneof(
        printable(40),
        fc.constantFrom('unknown', '::1, 10.0.0.1', '999.999.1.1', ', , ,', '127.0.0.1'.repeat(50)),
        unicode(),
      ),
      'x-request-id': fc.oneof(printable(200), unicode(), headerValue),
      'if-none-match': fc.oneof(printable(), fc.constantFrom('*', 'W/"x"', '"')),
      accept: fc.oneof(printable(), fc.constantFrom('application/json', 'text/html', '*/*;q=x')),
      'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
      junk: fc.array(fc.tuple(fc.stringMatching(/^x-[a-z]{1,8}$/), printable(40)), { maxLength: 60 }),
      // Beyond Node's 16 KiB header limit (refused before any route is found): now and then.
      huge: fc.oneof(
        { weight: 19, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.integer({ min: 17_000, max: 40_000 }) },
      ),
    },
    { requiredKeys: [] },
  );

  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=latin1',
    'text/plain',
    'application/octet-stream',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    '*/*',
    ';;;',
    '',
  );
  type BodySpec = { kind: string; contentType: string; make: () => Buffer; bad: BadBody };
  const body: fc.Arbitrary<BodySpec | null> = fc.oneof(
    { weight: 12, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('{}', '{"wallet":"0x0"}', '[]', 'null').map((json) => ({
        kind: 'JSON',
        contentType: 'application/json',
        make: () => Buffer.from(json),
        bad: null,
      })),
    },
    {
      weight: 2,
      arbitrary: fc.oneof(printable(60), fc.constantFrom('{', '{"a":', '[1,]', "{'a':1}", 'nul')).map((text) => ({
        kind: 'malformed JSON',
        contentType: 'application/json',
        // A leading brace nothing closes, so no sample turns out valid by chance.
        make: () => Buffer.from(`{${text}`),
        bad: 'malformed JSON' as const,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 100, max: 200_000 }).map((depth) => ({
        kind: `JSON nested ${depth} deep`,
        contentType: 'application/json',
        make: () => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`),
        bad: null,
      })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.integer({ min: 1, max: 4_000 }), contentType).map(([size, type]) => ({
        kind: `${size} random bytes`,
        contentType: type,
        make: () => randomBytes(size),
        bad: null,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: BODY_LIMIT }), fc.constantFrom('application/json', 'text/plain', '*/*'))
        .map(([extra, type]) => ({
          kind: `${BODY_LIMIT + extra} bytes`,
          contentType: type,
          make: () => Buffer.alloc(BODY_LIMIT + extra, 0x61),
          bad: 'oversized' as const,
        })),
    },
  );
  const method = fc.constantFrom(
    'GET',
    'GET',
    'GET',
    'HEAD',
    'POST',
    'POST',
    'PUT',
    'PATCH',
    'DELETE',
    'OPTIONS',
    'TRACE',
    'PROPFIND',
    'FOO',
  );

  return fc.record({ method, path, query, headers, body }).map(({ method, path, query, headers, body }) => {
    const target = `${path}${query}`;
    const bad = body !== null && BODY_METHODS.has(method) ? body.bad : null;
    return {
      badBody: bad,
      build() {
        const list: [string, string | Buffer][] = [];
        for (const [name, value] of Object.entries(headers)) {
          if (name === 'junk') list.push(...(value as [string, string][]));
          else if (name === 'huge') {
            if (value !== null) list.push(['x-huge', 'z'.repeat(value as number)]);
          } else list.push([name, value as string]);
        }
        if (body !== null && body.contentType !== '') list.push(['content-type', body.contentType]);
        return { method, target, headers: list, body: body?.make() };
      },
      describe() {
        const headerSizes = Object.entries(headers).map(([name, v]) => `${name}(${String(v).length})`);
        return (
          `${method} ${JSON.stringify(target.slice(0, 300))}${target.length > 300 ? `… (${target.length})` : ''} ` +
          `headers ${headerSizes.join(' ') || 'none'}, body ${body ? `${body.kind} as ${JSON.stringify(body.contentType)}` : 'none'}`
        );
      },
    };
  });
}
