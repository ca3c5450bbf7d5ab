const ESCAPE = /%([0-9a-fA-F]{2})/g;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The URL with the percent-escapes of unreserved characters in its path decoded (`/v1/%72ounds` →
 * `/v1/rounds`): RFC 3986 §6.2.2.2 makes them the same URI. The router decodes them when it matches,
 * but whatever else reads the path (which API group's error format, which methods the path allows)
 * would see another path: a pool request with a bad round id got the Data API's 500. Normalised before
 * routing, everything sees one path. Other escapes (`%2F`, `%20`) and the query stay as they are.
 */
export function withUnreservedEscapesDecoded(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!path.includes('%')) return url;
  const decoded = path.replace(ESCAPE, (escape, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : escape;
  });
  return queryAt === -1 ? decoded : decoded + url.slice(queryAt);
}
