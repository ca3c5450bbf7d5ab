import { Injectable, type PipeTransform } from '@nestjs/common';
import { decodeCursor, InvalidCursorError } from '@lottery/domain';
import { ApiError } from '../../http/api-error';
import { STORED_ID_MAX } from './storage-bounds';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** A validated page request: how many rows, and the sort key of the last row already seen. */
export interface PageRequest {
  limit: number;
  after: bigint[] | null;
}

const INTEGER = /^-?\d+$/;

/**
 * `?cursor&limit` → PageRequest. `limit` must be an integer and is clamped to 1..100 (spec); the cursor
 * must be one we issued for this kind of list: its key has `keyParts` parts, the last one a stored id.
 * Other query parameters are ignored, so adding optional ones later stays non-breaking.
 */
@Injectable()
export class PageQueryPipe implements PipeTransform<Record<string, unknown>, PageRequest> {
  constructor(private readonly keyParts: number) {}

  transform(query: Record<string, unknown>): PageRequest {
    return { limit: parseLimit(query['limit']), after: this.parseCursor(query['cursor']) };
  }

  private parseCursor(cursor: unknown): bigint[] | null {
    if (cursor === undefined) return null;
    if (typeof cursor !== 'string') throw new ApiError('invalid_request', 'cursor must be given at most once');
    try {
      const key = decodeCursor(cursor, this.keyParts);
      // We only ever issue stored ids; a larger one is a forged cursor, not a position.
      if (key[key.length - 1] > STORED_ID_MAX) throw new InvalidCursorError('key out of range');
      return key;
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new ApiError('invalid_cursor', 'cursor is not acceptable');
      throw error;
    }
  }
}

/** Lists paged by id carry one key part; round wins page by (amount, id). */
export const BY_ID = new PageQueryPipe(1);
export const BY_AMOUNT_THEN_ID = new PageQueryPipe(2);

function parseLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (typeof limit !== 'string' || !INTEGER.test(limit)) {
    throw new ApiError('invalid_request', 'limit must be an integer (values outside 1..100 are clamped)');
  }
  // Compare as bigint so huge digit strings clamp instead of overflowing.
  const value = BigInt(limit);
  return value < 1n ? 1 : value > BigInt(MAX_LIMIT) ? MAX_LIMIT : Number(value);
}
