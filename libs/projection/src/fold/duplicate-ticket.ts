import type { DecodedChainEvent } from '../decode/decoded-event';
import { PoisonEventError } from '../poison-event-error';

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
  driverError?: PgError;
}

/**
 * A ticket id already stored is caught by the unique index rather than by a lookup per purchase (that
 * lookup cost the fold a tenth of its throughput); this turns the violation into the poison error
 * naming the purchase, like every other invariant violation.
 */
export function asDuplicateTicket(error: unknown, events: readonly DecodedChainEvent[]): PoisonEventError | null {
  const pg = (error as PgError).driverError ?? (error as PgError);
  if (pg.code !== '23505' || pg.constraint !== 'tickets_user_ticket_id') return null;
  const id = /\(user_ticket_id\)=\((\d+)\)/.exec(pg.detail ?? '')?.[1];
  const event = events.find((e) => e.body.type === 'TicketPurchased' && String(e.body.userTicketId) === id);
  return event ? new PoisonEventError(event.id, event.position, `ticket ${id} was already bought`) : null;
}
