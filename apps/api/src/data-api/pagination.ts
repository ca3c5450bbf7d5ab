import { decodeCursor, encodeCursor, InvalidCursorError } from '@lottery/domain';
import { ApiError } from '../http/api-error';
import { SerializedJson } from '../http/serialized-json';
import type { ListEnvelope } from './dto/list.dto';
import type { PageRequest } from './params/page-query.pipe';
import { STORED_ID_MAX } from './params/storage-bounds';

/** A keyset-paged list: its identity (its path, which its cursors are bound to) and its rows' sort key. */
export interface KeysetList<R> {
  id: string;
  keyParts: number;
  keyOf(row: R): bigint[];
}

/**
 * One keyset page: fetch one row more than asked to learn whether another page exists, and hand out
 * the last returned row's sort key as the cursor (domain codec, bound to this list, strictly checked on
 * return: a cursor of another list is 400 invalid_cursor, never a wrong page).
 */
export async function paginate<R, T>(
  page: PageRequest,
  list: KeysetList<R>,
  fetch: (limit: number, after: bigint[] | null) => Promise<R[]>,
  format: (row: R) => T,
): Promise<ListEnvelope<T>> {
  const rows = await fetch(page.limit + 1, afterKey(page, list));
  const hasMore = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    data: shown.map(format),
    next_cursor: hasMore && last !== undefined ? encodeCursor(list.id, list.keyOf(last)) : null,
    has_more: hasMore,
  };
}

function afterKey<R>(page: PageRequest, list: KeysetList<R>): bigint[] | null {
  if (page.cursor === null) return null;
  try {
    const key = decodeCursor(page.cursor, list.id, list.keyParts);
    // We only ever issue stored ids; a larger one is a forged cursor, not a position.
    if (key[key.length - 1] > STORED_ID_MAX) throw new InvalidCursorError('key out of range');
    return key;
  } catch (error) {
    if (error instanceof InvalidCursorError) throw new ApiError('invalid_cursor', 'cursor is not acceptable');
    throw error;
  }
}
/** A page whose items are JSON text already, in the envelope: the bytes JSON.stringify would give. */
export function serializedPage(page: ListEnvelope<string>): SerializedJson {
  const cursor = JSON.stringify(page.next_cursor);
  return new SerializedJson(`{"data":[${page.data.join(',')}],"next_cursor":${cursor},"has_more":${page.has_more}}`);
}
