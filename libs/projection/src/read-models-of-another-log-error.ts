import type { EventLog } from '@lottery/event-log';
import type { ProjectorCursor } from '@lottery/persistence';
import { recordId } from './decode/decode-event';

/** How a log shows it is not the one read models were folded from. */
export type OtherLogSign =
  /** It ends before their position. */
  | { kind: 'ends-before'; tail: number }
  /** It holds another record at their position than the one they folded there (`folded`, when known), or none. */
  | { kind: 'other-record'; found: string; folded: string | null };

/**
 * Whether `log` shows it is not the log read models at `folded` came from: it ends before their position,
 * or holds another record there. Their position is always a record of their own log, which never drops
 * one, so no record there (a Kafka transaction's commit marker, say) is another log's sign too. Null when
 * it holds the record they folded there, and when it cannot tell: read models that stored no record id
 * (folded before they did, or by a version that did not), a position the log no longer holds (Kafka's
 * retention).
 */
export async function signOfAnotherLog(
  log: Pick<EventLog, 'read' | 'head' | 'tail'>,
  folded: Pick<ProjectorCursor, 'positionEventId'> & { position: number },
): Promise<OtherLogSign | null> {
  const tail = await log.tail();
  if (folded.position >= tail) return { kind: 'ends-before', tail };
  if (folded.position < (await log.head())) return null;
  const [record] = await log.read(folded.position, 1);
  const expected = folded.positionEventId;
  if (record?.position !== folded.position) return { kind: 'other-record', found: 'no record', folded: expected };
  const found = recordId(record);
  return expected === null || found === expected ? null : { kind: 'other-record', found, folded: expected };
}

/**
 * The read models were folded from another log (a replay of a new one, a wrong EVENT_LOG_SCHEMA or
 * KAFKA_TOPIC_PREFIX). Following this log from their position would skip its events up to there and
 * fold the rest onto the other log's state.
 */
export class ReadModelsOfAnotherLogError extends Error {
  constructor(schema: string, position: number, sign: OtherLogSign) {
    super(
      `the read models in ${schema} have folded up to log position ${position}, ${otherLogSignText(sign)}: ` +
        'they were folded from another log. Point the projector at that log, or rebuild them from this one ' +
        'with `ops replay --new-log`',
    );
    this.name = 'ReadModelsOfAnotherLogError';
  }
}

/** What `sign` shows, as a clause: "past this event log's end (…)", "where this event log holds …". */
export function otherLogSignText(sign: OtherLogSign): string {
  if (sign.kind === 'ends-before') return `past this event log's end (next position ${sign.tail})`;
  const folded = sign.folded === null ? '' : `, not the ${sign.folded} they folded`;
  return `where this event log holds ${sign.found}${folded}`;
}
