import type { HeaderObject, HeadersObject } from '@nestjs/swagger';

/**
 * Response headers of the Data API, defined once under `components/headers` and referenced by every
 * response, so each operation's documentation stays short and the definitions cannot drift apart.
 */
export const RESPONSE_HEADERS = {
  'X-Request-Id': header('Identifies the request (echoes a valid incoming X-Request-Id)', { type: 'string' }, true),
  'X-RateLimit-Tier': header('Rate-limit tier of the caller', { type: 'string', enum: ['authenticated', 'anonymous'] }),
  'X-RateLimit-Limit': header('Limit of the more restrictive bucket (per minute or per day)', { type: 'integer' }),
  'X-RateLimit-Remaining': header('Requests left in that bucket', { type: 'integer' }),
  'X-RateLimit-Reset': header('Unix epoch in milliseconds when that bucket refills', { type: 'integer' }),
  'Retry-After': header('Seconds to wait before retrying', { type: 'integer' }, true),
  Allow: header('Methods the path supports', { type: 'string' }, true),
  'WWW-Authenticate': header('Bearer challenge', { type: 'string' }, true),
  ETag: header('Entity tag of the body (settled rounds only)', { type: 'string' }),
  'Cache-Control': header('Caching policy (settled rounds only)', { type: 'string' }),
} satisfies Record<string, HeaderObject>;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/**
 * `required` marks headers present on every response of that kind. The rate-limit headers are not:
 * a response refused before the limiter could count (Redis down, an unparsable URL) cannot carry them.
 */
function header(description: string, schema: HeaderObject['schema'], required = false): HeaderObject {
  return required ? { description, required, schema } : { description, schema };
}

/** References to the named headers, for a response's `headers`. */
export function headerRefs(...names: ResponseHeader[]): HeadersObject {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** Every Data API response carries these: the request id and the rate-limit headers. */
export const COMMON_HEADER_NAMES: ResponseHeader[] = [
  'X-Request-Id',
  'X-RateLimit-Tier',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
