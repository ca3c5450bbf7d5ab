export type BearerCredentials = { kind: 'none' } | { kind: 'malformed' } | { kind: 'token'; token: string };

/** RFC 6750 §2.1: `"Bearer" 1*SP b64token`, the scheme name in any case, the token without spaces. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export function bearerCredentials(authorization: string | undefined): BearerCredentials {
  if (authorization === undefined) return { kind: 'none' };
  const match = BEARER.exec(authorization);
  return match ? { kind: 'token', token: match[1] } : { kind: 'malformed' };
}
