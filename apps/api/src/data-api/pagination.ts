import { encodeCursor } from '@lottery/domain';
import { SerializedJson } from '../http/serialized-json';
import type { ListEnvelope } from './dto/list.dto';
import type { PageRequest } from './params/page-query.pipe';

/**
 * One keyset page: fetch one row more than asked to learn whether another page exists, and hand out
 * the last returned row's sort key as the cursor (domain codec, so it is strictly validated on return).
 */
export async function paginate<R, T>(
  page: PageRequest,
  fetch: (limit: number) => Promise<R[]>,
  keyOf: (row: R) => bigint[],
  format: (row: R) => T,
): Promise<ListEnvelope<T>> {
  const rows = await fetch(page.limit + 1);
  const hasMore = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    data: shown.map(format),
    next_cursor: hasMore && last !== undefined ? encodeCursor(keyOf(last)) : null,
    has_more: hasMore,
  };
}

/** A page whose items are JSON text already, in the envelope: the bytes JSON.stringify would give. */
export function serializedPage(page: ListEnvelope<string>): SerializedJson {
  const cursor = JSON.stringify(page.next_cursor);
  return new SerializedJson(`{"data":[${page.data.join(',')}],"next_cursor":${cursor},"has_more":${page.has_more}}`);
}
