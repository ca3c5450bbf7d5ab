/**
 * The baseline of the Data API benchmark: a minimal Fastify + pg server that runs, per request, the
 * same SQL statements the API runs for the same endpoint — the very texts of libs/persistence's
 * read-model-sql.ts, with the same parameters (first page: the largest key, limit 50 + 1 to learn
 * `has_more`) and the same pool size — and sends the rows as JSON. No auth, rate limit, validation,
 * formatting, ETag or metrics: what remains of the API's figures beside it is their cost.
 *
 *   DATABASE_URL=… READ_SCHEMA=lottery PORT=… node -r ./tools/register.js bench/api/raw-server.ts
 */
import { FIRST_PAGE_ID, readModelPoolConfig, readModelSql } from '@lottery/persistence';
import Fastify from 'fastify';
import { Pool } from 'pg';

const LIMIT = 50;
const FIRST = FIRST_PAGE_ID.toString();

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is required');
  const sql = readModelSql(`"${process.env['READ_SCHEMA'] || 'lottery'}"`);
  // the API's read-model pool (apps/api/src/main.ts): its size, connections kept open when idle
  const pool = new Pool({
    connectionString: url,
    ...readModelPoolConfig({ poolSize: Number(process.env['POOL_SIZE'] || 10), idleConnectionTimeoutMs: 0 }),
    application_name: 'bench-raw',
  });

  const page = (rows: { id: string }[]) => {
    const hasMore = rows.length > LIMIT;
    const data = rows.slice(0, LIMIT);
    return { data, next_cursor: hasMore ? (data.at(-1)?.id ?? null) : null, has_more: hasMore };
  };

  const app = Fastify({ logger: false });
  app.get('/v1/rounds', async () => page((await pool.query(sql.listRounds, [FIRST, LIMIT + 1])).rows));
  app.get<{ Params: { id: string } }>('/v1/rounds/:id/tickets', async (request, reply) => {
    // the API answers 404 for an unknown round, so it reads the round too, beside the page: so does the baseline
    const [round, tickets] = await Promise.all([
      pool.query(sql.roundById, [request.params.id]),
      pool.query(sql.roundTickets, [request.params.id, FIRST, LIMIT + 1]),
    ]);
    if (round.rowCount === 0) return reply.code(404).send({ error: 'not_found' });
    return page(tickets.rows);
  });
  app.get<{ Params: { address: string } }>('/v1/wallets/:address/tickets', async (request) =>
    page((await pool.query(sql.walletTickets, [request.params.address.toLowerCase(), FIRST, LIMIT + 1])).rows),
  );

  // the probes of --endpoints: one round by id (the API answers 404 for an unknown one), and liveness
  app.get<{ Params: { id: string } }>('/v1/rounds/:id', async (request, reply) => {
    const { rows } = await pool.query(sql.roundById, [request.params.id]);
    return rows.length === 0 ? reply.code(404).send({ error: 'not_found' }) : rows[0];
  });
  app.get('/health/live', async () => ({ status: 'ok' }));

  await app.listen({ port: Number(process.env['PORT'] || 0), host: '127.0.0.1' });
  console.log(`raw server listening on ${JSON.stringify(app.server.address())}`);

  const stop = () => void app.close().then(() => pool.end().then(() => process.exit(0)));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // started by bench/api/main.ts over an IPC channel: stop with it
  if (process.send) {
    process.once('disconnect', stop);
    process.channel?.unref();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
