/**
 * Every route the app registered, by path pattern, so an unmatched request can be told apart:
 * a path that exists for other methods is a 405 with `Allow`, anything else a 404. Fed by Fastify's
 * `onRoute` hook, so it sees the same routes the router does (including Fastify's automatic HEAD).
 */
export class RouteTable {
  private readonly methodsByPattern = new Map<string, Set<string>>();
  private readonly matchers: { pattern: string; regex: RegExp }[] = [];

  record(method: string | string[], url: string): void {
    // Catch-all routes (the Data API's unmatched-path handler) must not make every path "exist".
    if (url.includes('*')) return;
    let methods = this.methodsByPattern.get(url);
    if (!methods) {
      methods = new Set();
      this.methodsByPattern.set(url, methods);
      this.matchers.push({ pattern: url, regex: patternToRegex(url) });
    }
    for (const m of [method].flat()) methods.add(m.toUpperCase());
  }

  /** Methods registered for the path (no query string), in a stable order; empty when no route matches. */
  allowedMethods(path: string): string[] {
    const allowed = new Set<string>();
    for (const { pattern, regex } of this.matchers) {
      if (regex.test(path)) for (const m of this.methodsByPattern.get(pattern) ?? []) allowed.add(m);
    }
    return [...allowed].sort(byHttpOrder);
  }
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
function byHttpOrder(a: string, b: string): number {
  const rank = (m: string) => (ORDER.includes(m) ? ORDER.indexOf(m) : ORDER.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** `/v1/rounds/:roundId` → `^/v1/rounds/[^/]+$` (the only parameter syntax our routes use). */
function patternToRegex(pattern: string): RegExp {
  const segments = pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}
