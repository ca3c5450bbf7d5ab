import type { DecodedChainEvent } from '../decode/decoded-event';
import { PoisonEventError } from '../poison-event-error';

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
  message?: string;
  driverError?: PgError;
}

/** A unique key the fold leaves to the database to check, and the event a violation of it names. */
interface CheckedKey {
  column: string;
  names(e: DecodedChainEvent, key: string): boolean;
  reason(key: string): string;
}

const CHECKED_KEYS: Record<string, CheckedKey> = {
  tickets_user_ticket_id: {
    column: 'user_ticket_id',
    names: (e, key) => e.body.type === 'TicketPurchased' && String(e.body.userTicketId) === key,
    reason: (key) => `ticket ${key} was already bought`,
  },
  daily_pool_entries_pkey: {
    column: 'entry_id',
    names: (e, key) => e.body.type === 'PoolEntered' && String(e.body.entryId) === key,
    reason: (key) => `pool entry ${key} was already entered`,
  },
};

/**
 * What the database refuses of a segment's writes, as the poison error naming the event behind it, like
 * every other invariant violation:
 * - a ticket id or pool entry id already stored, caught by its unique index rather than by a lookup per
 *   event (that lookup cost the fold a tenth of its throughput): the later of the events naming it;
 * - an amount past numeric(78,0): every uint256 fits, but a sum or product of them (a wallet's spending,
 *   a prize pool) may not; the segment's events are named by their range.
 */
export function asPoisonWrite(error: unknown, events: readonly DecodedChainEvent[]): PoisonEventError | null {
  const pg = (error as PgError).driverError ?? (error as PgError);
  if (pg.code === '22003' && events.length > 0) {
    const [first, last] = [events[0], events[events.length - 1]];
    return new PoisonEventError(
      last.id,
      last.position,
      `an amount the events at log positions ${first.position}–${last.position} add up to is out of range ` +
        `(${pg.message ?? 'numeric overflow'}): a sum or product of uint256 amounts past numeric(78,0)`,
    );
  }
  const checked = pg.code === '23505' ? CHECKED_KEYS[pg.constraint ?? ''] : undefined;
  if (!checked) return null;
  const key = new RegExp(`\\(${checked.column}\\)=\\((\\d+)\\)`).exec(pg.detail ?? '')?.[1];
  if (key === undefined) return null;
  // the first event naming the key may be the one that stored it: the duplicate is the last
  const event = events.findLast((e) => checked.names(e, key));
  return event ? new PoisonEventError(event.id, event.position, checked.reason(key)) : null;
}
