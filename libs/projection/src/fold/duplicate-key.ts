import type { DecodedChainEvent } from '../decode/decoded-event';
import { PoisonEventError } from '../poison-event-error';

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
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
 * A ticket id or pool entry id already stored is caught by its unique index rather than by a lookup per
 * event (that lookup cost the fold a tenth of its throughput); this turns the violation into the poison
 * error naming the event, like every other invariant violation.
 */
export function asDuplicateKey(error: unknown, events: readonly DecodedChainEvent[]): PoisonEventError | null {
  const pg = (error as PgError).driverError ?? (error as PgError);
  const checked = pg.code === '23505' ? CHECKED_KEYS[pg.constraint ?? ''] : undefined;
  if (!checked) return null;
  const key = new RegExp(`\\(${checked.column}\\)=\\((\\d+)\\)`).exec(pg.detail ?? '')?.[1];
  if (key === undefined) return null;
  const event = events.find((e) => checked.names(e, key));
  return event ? new PoisonEventError(event.id, event.position, checked.reason(key)) : null;
}
