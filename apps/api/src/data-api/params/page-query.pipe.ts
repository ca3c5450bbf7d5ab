import { Injectable, type PipeTransform } from '@nestjs/common';
import { ApiError } from '../../http/api-error';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** A page request: how many rows, and the cursor of the page before (decoded by the list it pages). */
export interface PageRequest {
  limit: number;
  cursor: string | null;
}

const INTEGER = /^-?\d+$/;

/**
 * `?cursor&limit` → PageRequest. `limit` must be an integer and is clamped to 1..100 (spec); the cursor
 * is checked by `paginate`, which knows the list it must belong to. Other query parameters are ignored,
 * so adding optional ones later stays non-breaking.
 */
@Injectable()
class PageQueryPipe implements PipeTransform<Record<string, unknown>, PageRequest> {
  transform(query: Record<string, unknown>): PageRequest {
    const cursor = query['cursor'];
    if (cursor !== undefined && typeof cursor !== 'string') {
      throw new ApiError('invalid_request', 'cursor must be given at most once');
    }
    return { limit: parseLimit(query['limit']), cursor: cursor ?? null };
  }
}

export const PAGE_QUERY = new PageQueryPipe();
function parseLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (Array.isArray(limit)) throw new ApiError('invalid_request', 'limit must be given at most once');
  if (typeof limit !== 'string' || !INTEGER.test(limit)) {
    throw new ApiError('invalid_request', 'limit must be an integer (values outside 1..100 are clamped)');
  }
  // Compare as bigint so huge digit strings clamp instead of overflowing.
  const value = BigInt(limit);
  return value < 1n ? 1 : value > BigInt(MAX_LIMIT) ? MAX_LIMIT : Number(value);
}
