import { Query, type ClientBase } from 'pg';

/** The part of pg's connection a COPY FROM STDIN writes to (not in @types/pg). */
interface CopyConnection {
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

/**
 * COPY text goes out in pieces of about this many characters, each as soon as it is encoded: Postgres
 * parses and inserts one piece while the next is encoded (on two cores the projector's replay waited
 * for its own COPY statements, bench/PROFILE.md, fourteenth round).
 */
const CHUNK_CHARS = 256 * 1024;

/**
 * COPY … FROM STDIN of rows encoded to COPY text as they are sent. Bulk ticket rows go this way because
 * COPY is the cheapest path into Postgres (about 2.5× faster than json_to_recordset or unnest
 * parameters, measured on the projector's benchmark). A pg Query whose copy-in handler encodes and sends.
 * A row that cannot be encoded fails the COPY (CopyFail), which rejects with the encoding error and
 * leaves the connection usable; the caller's transaction is then aborted.
 */
class CopyRowsQuery extends Query {
  /** What failed to encode, when a row did: the COPY's own error, before Postgres's "COPY … failed". */
  encodingError: unknown = undefined;

  constructor(
    sql: string,
    // not `rows` nor `text`: pg's Query keeps its own in those (rows per fetch, the SQL)
    private readonly copyRows: readonly CopyRow[],
    done: (error: Error | undefined) => void,
  ) {
    super(sql, undefined, done);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    try {
      for (const chunk of copyTextChunks(this.copyRows, CHUNK_CHARS)) {
        connection.sendCopyFromChunk(Buffer.from(chunk, 'utf8'));
      }
    } catch (error) {
      this.encodingError = error;
      connection.sendCopyFail(error instanceof Error ? error.message : String(error));
      return;
    }
    connection.endCopyFrom();
  }
}

export function copyFromRows(client: ClientBase, sql: string, rows: readonly CopyRow[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const query: CopyRowsQuery = new CopyRowsQuery(sql, rows, (error) => {
      if (query.encodingError !== undefined) reject(query.encodingError);
      else if (error) reject(error);
      else resolve();
    });
    void client.query(query);
  });
}

export type CopyValue = string | number | bigint | boolean | Date | null | readonly (number | string)[];
/** A row's values, or the row already written as a line of COPY text (by a table's own encoder). */
export type CopyRow = readonly CopyValue[] | string;

const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function field(v: CopyValue): string {
  // most fields are strings (hex, decimals): checked first, escaped only when needed (JSON of events)
  if (typeof v === 'string') return SPECIAL.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c] ?? c) : v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v === null) return '\\N';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (v instanceof Date) return v.toISOString();
  return `{${v.join(',')}}`;
}

/**
 * Rows as COPY text format (tab-separated, \\N for null), whole lines of about `chunkChars` characters
 * at a time. Array elements must not need quoting.
 */
export function* copyTextChunks(rows: readonly CopyRow[], chunkChars: number): Generator<string> {
  let lines: string[] = [];
  let size = 0;
  for (const row of rows) {
    const line = typeof row === 'string' ? row : row.map(field).join('\t');
    lines.push(line);
    size += line.length + 1;
    if (size >= chunkChars) {
      lines.push('');
      yield lines.join('\n');
      lines = [];
      size = 0;
    }
  }
  if (lines.length > 0) {
    lines.push('');
    yield lines.join('\n');
  }
}
