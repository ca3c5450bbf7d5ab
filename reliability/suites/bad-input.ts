/**
 * Bad input (issue 9, reliability item 4): seeded fast-check requests across the three API groups — paths,
 * queries, headers and bodies, huge, binary and malformed — sent as raw bytes to the API process on real
 * Postgres (read models projected from a small anvil history) and Redis. Every request must get an answer
 * below 500 in its group's error format; a malformed or oversized body must be refused with a 4xx.
 */
import fc from 'fast-check';
import { buildProjectedLottery, giveawayApiEnv, jsonOf, runOps, startApiProcess } from '@lottery/pipeline-testing';
import { redisForSuite } from '@lottery/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FuzzKeys, type FuzzedRequest, fuzzedRequest } from '../lib/fuzzed-requests';
import { type RawOutcome, type RawRequest, sendRaw } from '../lib/raw-http';
import type { ReliabilitySuite, SuiteContext, SuiteOutcome } from '../lib/suite';

/** Requests in flight at once: enough to keep the API busy without measuring the shared machine. */
const CONCURRENCY = 8;
const ANSWER_TIMEOUT_MS = 30_000;
const DAILY_POOL_PREFIX = '/api/v1/daily-ticket-pool';
const PARTNER_PREFIX = '/api/v1/giveaways/partner-free-tickets';

type Group = 'data' | 'daily-pool' | 'partner';

interface Tally {
  requests: number;
  status: Map<number, number>;
  responses5xx: number;
  badFormat: number;
  bodiesRejected4xx: number;
  unanswered: number;
  /** One request of each kind of problem (by status and what was wrong), to reproduce it. */
  examples: Map<string, string>;
}

export const badInput: ReliabilitySuite = {
  name: 'bad-input',
  async run(context: SuiteContext): Promise<SuiteOutcome> {
    const total = context.quick ? 1_000 : 10_000;
    const projected = await buildProjectedLottery({
      label: 'rel_bad_input',
      history: { seed: `bad-input:${context.seed}`, rounds: 3, ticketsPerRound: 20 },
    });
    const redis = redisForSuite('rel_bad_input');
    const dataDir = mkdtempSync(join(tmpdir(), 'rel-bad-input-'));
    let api: Awaited<ReturnType<typeof startApiProcess>> | undefined;
    try {
      const keys = await makeKeys({ DATABASE_URL: projected.databaseUrl, DATA_DIR: dataDir });
      const wallets = (
        (await projected.dataSource.query(`SELECT address FROM lottery.wallet_stats ORDER BY address LIMIT 5`)) as {
          address: string;
        }[]
      ).map((w) => w.address);
      const rounds = projected.history.settled.map((d) => d.drawingId.toString());
      api = await startApiProcess({
        DATABASE_URL: projected.databaseUrl,
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: redis.prefix,
        ...giveawayApiEnv(projected.anvil.rpcUrl, projected.deployment),
      });
      const port = Number(new URL(api.url).port);
      const requests = fc.sample(
        fuzzedRequest({ keys, wallets, rounds: [...rounds, projected.history.openDrawingId.toString()] }),
        {
          seed: context.seed,
          numRuns: total,
        },
      );
      context.log(`${requests.length} requests generated; sending ${CONCURRENCY} at a time`);
      const tally: Tally = {
        requests: 0,
        status: new Map(),
        responses5xx: 0,
        badFormat: 0,
        bodiesRejected4xx: 0,
        unanswered: 0,
        examples: new Map(),
      };
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const request = requests[next++];
          const raw = request.build();
          record(tally, request, raw, await sendRaw(port, raw, ANSWER_TIMEOUT_MS));
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      if (api.child.exitCode !== null) tally.examples.set('exit', `the API process exited with ${api.child.exitCode}`);
      return outcome(tally, context.quick);
    } finally {
      await api?.stop();
      await Promise.allSettled([projected.dispose(), redis.cleanup()]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

/** The keys a caller might send, made with the ops CLI as an operator makes them. */
async function makeKeys(env: NodeJS.ProcessEnv): Promise<FuzzKeys> {
  const ops = async <T>(...args: string[]) => jsonOf<T>(await runOps([...args, '--json'], env));
  // Limits no run reaches, so the fuzzer explores the API rather than its 429s.
  const unlimited = ['--per-minute', '1000000000', '--per-day', '1000000000'];
  const live = await ops<{ id: string; key: string }>('api-keys', 'create', ...unlimited);
  const [revoked, testEnvironment] = await Promise.all([
    ops<{ id: string; key: string }>('api-keys', 'create'),
    ops<{ key: string }>('api-keys', 'create', '--environment', 'test', ...unlimited),
  ]);
  await ops('api-keys', 'revoke', revoked.id);
  // A partner with no tickets: a POST that passes every check is refused, so no fuzzed request buys one.
  const [partner, disabled] = await Promise.all([
    ops<{ id: number; apiKey: string }>('partners', 'create', '--name', 'fuzz', '--quantity', '0', '--per-wallet', '1'),
    ops<{ id: number; apiKey: string }>('partners', 'create', '--name', 'off', '--quantity', '0', '--per-wallet', '1'),
  ]);
  await ops('partners', 'disable', String(disabled.id));
  return {
    data: live.key,
    revoked: revoked.key,
    otherEnvironment: testEnvironment.key,
    partner: partner.apiKey,
    disabledPartner: disabled.apiKey,
  };
}

/** The group whose format an error must have: the API's own rule (the longest prefix, on whole segments). */
function groupOf(target: string): Group {
  const path = target.split('?')[0];
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (under(PARTNER_PREFIX)) return 'partner';
  if (under(DAILY_POOL_PREFIX)) return 'daily-pool';
  return 'data';
}

/** Why an error response is not in its group's format; null when it is. */
function formatProblem(group: Group, method: string, outcome: Extract<RawOutcome, { answered: true }>): string | null {
  const requestId = outcome.headers['x-request-id'];
  if (!requestId) return 'no X-Request-Id header';
  if (outcome.status < 400 || method === 'HEAD') return null;
  let body: unknown;
  try {
    body = JSON.parse(outcome.body.toString('utf8'));
  } catch {
    return `a body that is not JSON: ${JSON.stringify(outcome.body.toString('utf8').slice(0, 200))}`;
  }
  const fields = body !== null && typeof body === 'object' ? Object.keys(body).sort().join(',') : typeof body;
  const error = (body as { error?: unknown }).error;
  if (group === 'data') {
    const e = error as { code?: unknown; message?: unknown; request_id?: unknown } | undefined;
    const ok =
      fields === 'error' &&
      typeof e === 'object' &&
      e !== null &&
      Object.keys(e).sort().join(',') === 'code,message,request_id' &&
      typeof e.code === 'string' &&
      typeof e.message === 'string' &&
      e.request_id === requestId;
    return ok ? null : `not the Data API envelope: ${JSON.stringify(body).slice(0, 300)}`;
  }
  // {error: string}; the partner group's 401 also says eligible: false.
  const allowed = group === 'partner' && outcome.status === 401 ? ['eligible,error'] : ['error'];
  const ok = allowed.includes(fields) && typeof error === 'string';
  return ok ? null : `not {error: string}: ${JSON.stringify(body).slice(0, 300)}`;
}

function record(tally: Tally, request: FuzzedRequest, raw: RawRequest, outcome: RawOutcome): void {
  tally.requests++;
  const problem = (what: string) => {
    const kind = what.slice(0, 40);
    if (!tally.examples.has(kind) && tally.examples.size < 20)
      tally.examples.set(kind, `${what} for ${request.describe()}`);
  };
  if (!outcome.answered) {
    tally.unanswered++;
    problem(`no answer (${outcome.reason})`);
    return;
  }
  tally.status.set(outcome.status, (tally.status.get(outcome.status) ?? 0) + 1);
  if (outcome.status >= 500) {
    tally.responses5xx++;
    problem(`${outcome.status} ${outcome.body.toString('utf8').slice(0, 200)}`);
  }
  const format = formatProblem(groupOf(raw.target), raw.method, outcome);
  if (format) {
    tally.badFormat++;
    problem(`${outcome.status} with ${format}`);
  }
  if (request.badBody) {
    if (outcome.status >= 400 && outcome.status < 500) tally.bodiesRejected4xx++;
    else problem(`${outcome.status} for a ${request.badBody} body (expected 4xx)`);
  }
}

function outcome(tally: Tally, quick: boolean): SuiteOutcome {
  const figures = {
    fuzzed_requests: tally.requests,
    responses_5xx: tally.responses5xx,
    responses_bad_format: tally.badFormat,
    bodies_rejected_4xx: tally.bodiesRejected4xx,
    bad_input_unanswered: tally.unanswered,
  };
  const statuses = [...tally.status.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  const failures =
    tally.examples.size > 0 || tally.responses5xx + tally.badFormat + tally.unanswered > 0
      ? [
          `${tally.responses5xx} 5xx, ${tally.badFormat} bad formats, ${tally.unanswered} unanswered; first problems:`,
          ...tally.examples.values(),
        ]
      : [];
  return {
    title: 'Bad input',
    intro:
      `${tally.requests} fast-check requests (seeded by --seed${quick ? '; quick size' : ''}) over the Data API, the ` +
      'daily pool and the partner API, sent as raw bytes to the API process on Postgres read models projected ' +
      'from an anvil history and Redis: random methods, unicode, percent-encoded and overlong paths, junk ' +
      'queries and headers (garbage and huge auth, X-Forwarded-For), malformed, binary, deeply nested, ' +
      'mistyped and oversized bodies.',
    rows: [
      { figure: 'requests', value: String(figures.fuzzed_requests), note: statuses },
      { figure: '5xx responses', value: String(figures.responses_5xx) },
      { figure: 'errors not in their group format', value: String(figures.responses_bad_format) },
      { figure: 'malformed or oversized bodies refused with 4xx', value: String(figures.bodies_rejected_4xx) },
      { figure: 'requests without an answer (reset or hung)', value: String(figures.bad_input_unanswered) },
    ],
    figures,
    failures,
  };
}
