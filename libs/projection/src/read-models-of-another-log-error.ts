import type { EventLog } from '@lottery/event-log';
import type { ProjectorCursor } from '@lottery/persistence';

/** How a log shows it is not the one read models were folded from. */
export type OtherLogSign =
  /** It ends before their position. */
  | { kind: 'ends-before'; tail: number }
  /** It holds another record at their position than the one they folded there. */
  | { kind: 'other-record'; found: string };

/**
 * Whether `log` shows it is not the log read models at `folded` came from: it ends before their position,
 * or holds another record there. Null when it reaches their position with the record they folded, and
 * when it cannot tell: read models that stored no record id yet (folded before the column existed), a
 * position the log no longer holds (Kafka's retention).
 */
export async function signOfAnotherLog(
  log: Pick<EventLog, 'read' | 'head' | 'tail'>,
  folded: Pick<ProjectorCursor, 'positionEventId'> & { position: number },
): Promise<OtherLogSign | null> {
  const tail = await log.tail();
  if (folded.position >= tail) return { kind: 'ends-before', tail };
  if (folded.positionEventId === null || folded.position < (await log.head())) return null;
  const [record] = await log.read(folded.position, 1);
  if (record?.position !== folded.position) return null;
  const id = (record.event as { id?: unknown } | null)?.id;
  const found = typeof id === 'string' ? id : 'a record without an id';
  return found === folded.positionEventId ? null : { kind: 'other-record', found };
}

/**
 * The read models were folded from another log (a replay of a new one, a wrong EVENT_LOG_SCHEMA or
 * KAFKA_TOPIC_PREFIX). Following this log from their position would skip its events up to there and
 * fold the rest onto the other log's state.
 */
export class ReadModelsOfAnotherLogError extends Error {
  constructor(
    schema: string,
    folded: Pick<ProjectorCursor, 'positionEventId'> & { position: number },
    sign: OtherLogSign,
  ) {
    const where =
      sign.kind === 'ends-before'
        ? `past this event log's end (next position ${sign.tail})`
        : `where this event log holds ${sign.found}, not the ${folded.positionEventId} they folded`;
    super(
      `the read models in ${schema} have folded up to log position ${folded.position}, ${where}: they were ` +
        'folded from another log. Point the projector at that log, or rebuild them from this one with ' +
        '`ops replay --new-log`',
    );
    this.name = 'ReadModelsOfAnotherLogError';
  }
}
