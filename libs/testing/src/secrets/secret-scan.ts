import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';

/** Where a secret was found: the place (table.column, file, Redis key) and the form it was in. */
export interface SecretFinding {
  where: string;
  form: string;
}

export interface SecretScan {
  /** Cells, files or Redis entries read. */
  valuesScanned: number;
  findings: SecretFinding[];
}

/** The shortest piece of a secret (in its plain form) that counts as leaked: less is what a hint may show. */
const MIN_LEAKED_CHARS = 16;

interface Needle {
  form: string;
  text: string;
}

/**
 * What to look for: every window of MIN_LEAKED_CHARS characters of the secret (any longer leaked piece
 * contains one), and the same share of its hex (either case), base64 and base64url encodings, in which
 * a stored copy would be just as plain to whoever reads the database.
 */
function needlesOf(secret: string): Needle[] {
  const bytes = Buffer.from(secret, 'utf8');
  const encodings: [string, string][] = [
    ['plain', secret],
    ['hex', bytes.toString('hex')],
    ['base64', bytes.toString('base64').replace(/=+$/, '')],
    ['base64url', bytes.toString('base64url')],
  ];
  const needles: Needle[] = [];
  for (const [form, encoded] of encodings) {
    const width = Math.min(encoded.length, Math.ceil((MIN_LEAKED_CHARS * encoded.length) / secret.length));
    for (let start = 0; start + width <= encoded.length; start++)
      needles.push({ form, text: encoded.slice(start, start + width) });
  }
  return needles;
}

/** Finds secrets in texts; hex is matched in either case. */
export class SecretMatcher {
  private readonly needles: Needle[];
  valuesScanned = 0;
  readonly findings: SecretFinding[] = [];

  constructor(secrets: readonly string[]) {
    this.needles = secrets.flatMap(needlesOf);
  }

  check(where: string, value: string | Buffer): void {
    this.valuesScanned++;
    // A byte string is searched as its bytes and as the hex Postgres shows it in.
    const texts = typeof value === 'string' ? [value] : [value.toString('latin1'), value.toString('hex')];
    const forms = new Set<string>();
    for (const text of texts) {
      const lower = text.toLowerCase();
      for (const needle of this.needles) {
        if (forms.has(needle.form)) continue;
        const haystack = needle.form === 'hex' ? lower : text;
        if (haystack.includes(needle.text)) forms.add(needle.form);
      }
    }
    for (const form of forms) this.findings.push({ where, form });
  }

  result(): SecretScan {
    return { valuesScanned: this.valuesScanned, findings: [...this.findings] };
  }
}

/** Every non-null value of every column of every table in every user schema of the database at `url`. */
export async function scanDatabaseForSecrets(url: string, matcher: SecretMatcher): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: columns } = await client.query<{ schema: string; table: string; column: string; type: string }>(
      `SELECT c.table_schema AS schema, c.table_name AS table, c.column_name AS column, c.data_type AS type
         FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
        ORDER BY 1, 2, 3`,
    );
    for (const { schema, table, column, type } of columns) {
      const quoted = `"${column.replace(/"/g, '""')}"`;
      // bytea comes back as bytes; everything else (json, arrays, numbers…) as its text form.
      const select = type === 'bytea' ? quoted : `${quoted}::text`;
      const { rows } = await client.query<{ value: string | Buffer }>({
        text: `SELECT ${select} AS value FROM "${schema.replace(/"/g, '""')}"."${table.replace(/"/g, '""')}" WHERE ${quoted} IS NOT NULL`,
      });
      for (const { value } of rows) matcher.check(`${schema}.${table}.${column}`, value);
    }
  } finally {
    await client.end();
  }
}

/** Every file under `dir` (recursively), whole. */
export function scanFilesForSecrets(dir: string, matcher: SecretMatcher): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) scanFilesForSecrets(path, matcher);
    else if (entry.isFile()) matcher.check(path, readFileSync(path));
  }
}

/** Every key under `prefix` on the Redis at `url`: its name and its value, whatever the key's type. */
export async function scanRedisForSecrets(url: string, prefix: string, matcher: SecretMatcher): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  await client.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1_000);
      for (const key of keys) {
        matcher.check(`redis key name ${key}`, key);
        for (const value of await redisValues(client, key)) matcher.check(`redis key ${key}`, value);
      }
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/** A key's contents as strings, by its type (DUMP would not do: RDB compresses long strings). */
async function redisValues(client: Redis, key: string): Promise<string[]> {
  switch (await client.type(key)) {
    case 'string':
      return [(await client.get(key)) ?? ''];
    case 'hash':
      return Object.entries(await client.hgetall(key)).flat();
    case 'list':
      return client.lrange(key, 0, -1);
    case 'set':
      return client.smembers(key);
    case 'zset':
      return client.zrange(key, 0, -1);
    case 'stream':
      return (await client.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
    default:
      return [];
  }
}
