import type { Pool, PoolClient } from 'pg';

/** Runs `work` in one transaction on one pooled connection; rolls back on any error. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A connection that cannot even roll back is destroyed rather than handed to the next caller, and so
    // is one whose statement went unanswered: its answer may still come, to the next caller's query.
    if (isReadTimeout(error)) broken = error as Error;
    else await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
}

/** pg's `query_timeout` passed: the server may still be running the statement, or never got it. */
const isReadTimeout = (error: unknown): boolean => error instanceof Error && error.message === 'Query read timeout';
