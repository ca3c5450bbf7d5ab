/**
 * A response body plus how long shared caches may keep it. Returned by the service for resources of
 * settled rounds; installHttpCache's hooks turn it into `Cache-Control` and `ETag`, and answer 304 to a
 * matching `If-None-Match`.
 */
export class Cacheable<T> {
  constructor(
    readonly body: T,
    readonly cacheControl: string | null,
  ) {}
}

/** A settled round does not change (payouts are done); an hour bounds the damage of a deep reorg. */
export const SETTLED_ROUND_CACHE = 'public, max-age=3600';
/** Its tickets still change when prizes are claimed, so caches revalidate (cheaply, via ETag) often. */
export const SETTLED_ROUND_TICKETS_CACHE = 'public, max-age=60';
