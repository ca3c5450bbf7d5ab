import type { RoundRecord } from '../read-model.types';
import { toRoundRecord, type RoundRow } from './read-model-rows';

/** Rounds a schema holds are few (one a day); the bound only keeps a long-lived process's memory flat. */
const DEFAULT_LIMIT = 10_000;

/**
 * One record per version of a round, shared by every read that meets that version, so what a reader
 * derives from a record (the Data API's JSON of a round: twelve prize tiers, fifteen amounts) it can keep
 * for as long as the record is handed out, and derive once per change of the round instead of per request.
 *
 * A version is the pair of row versions the query reads (xmin, the id of the transaction that wrote the
 * row: the round's own row and the previous round's, whose settled_at is this round's started_at). Every
 * UPDATE writes a new row version stamped with its transaction, and a transaction's intermediate versions
 * are never visible to others, so one (id, xmin, xmin) names one content. Transaction ids repeat only after
 * 2^32 transactions; the prize pool and ticket count in the key guard against that coincidence too.
 *
 * The records are frozen (their arrays and tiers too): callers share them and must not change them.
 */
export class RoundRecords {
  private readonly byVersion = new Map<string, RoundRecord>();

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  recordOf(row: RoundRow): RoundRecord {
    const version = `${row.id}/${row.row_version}/${row.previous_row_version}/${row.prize_pool}/${row.ticket_count}`;
    const known = this.byVersion.get(version);
    if (known !== undefined) return known;
    const record = frozen(toRoundRecord(row));
    // cleared when full rather than evicted one by one: bounded, and no bookkeeping per read
    if (this.byVersion.size >= this.limit) this.byVersion.clear();
    this.byVersion.set(version, record);
    return record;
  }
}

function frozen(record: RoundRecord): RoundRecord {
  if (record.winningNormals) Object.freeze(record.winningNormals);
  if (record.prizeTiers) {
    for (const tier of record.prizeTiers) Object.freeze(tier);
    Object.freeze(record.prizeTiers);
  }
  return Object.freeze(record);
}
