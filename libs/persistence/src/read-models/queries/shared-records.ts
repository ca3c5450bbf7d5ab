/** Rounds are few (one a day): the bound only keeps a long-lived process's memory flat. */
const DEFAULT_LIMIT = 10_000;
/** Far less time than 2^32 transactions take on any Postgres: an xmin cannot come round again within it. */
const DEFAULT_MAX_AGE_MS = 3_600_000;

/**
 * One record per version of a row, shared by every read that meets that version, so what a reader derives
 * from a record (the Data API's JSON of a round: twelve prize tiers, fifteen amounts) it can keep with the
 * record, and derive once per change of the row instead of once per request.
 *
 * A version is made of row versions the query reads: xmin, the id of the transaction that wrote the row.
 * Every UPDATE writes a new row version stamped with its transaction, and a transaction's intermediate
 * versions are never visible to others, so an id with its rows' xmins names one content. Transaction ids
 * do repeat, after 2^32 transactions: records are dropped long before (DEFAULT_MAX_AGE_MS), and when the
 * limit is reached.
 *
 * Records handed out are frozen, with their arrays and nested objects: callers share them.
 */
export class SharedRecords<Row, Record extends object> {
  private readonly byVersion = new Map<string, Record>();
  private since = Date.now();

  constructor(
    private readonly versionOf: (row: Row) => string,
    private readonly toRecord: (row: Row) => Record,
    private readonly limit = DEFAULT_LIMIT,
    private readonly maxAgeMs = DEFAULT_MAX_AGE_MS,
  ) {}

  recordOf(row: Row): Record {
    // cleared all at once rather than evicted one by one: bounded, and no bookkeeping per read
    if (Date.now() - this.since > this.maxAgeMs) this.forgetAll();
    const version = this.versionOf(row);
    const known = this.byVersion.get(version);
    if (known !== undefined) return known;
    if (this.byVersion.size >= this.limit) this.forgetAll();
    const record = deepFreeze(this.toRecord(row));
    this.byVersion.set(version, record);
    return record;
  }

  private forgetAll(): void {
    this.byVersion.clear();
    this.since = Date.now();
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || value instanceof Date || Object.isFrozen(value)) return value;
  for (const nested of Object.values(value)) deepFreeze(nested);
  return Object.freeze(value);
}
