/**
 * Partner race (issue 9, reliability item 3): 50 concurrent POSTs over 20 wallets for a partner with 10
 * free tickets and 1 per wallet, while the signer's RPC fails a share of its calls. The API runs as a
 * process on real Postgres, Redis (bullmq) and anvil with our lottery; the partner is made by the ops CLI.
 * Checked from the ledger and from the chain: 10 tickets issued, no wallet above its maximum, and no
 * reservation left unfinished or counted against the partner once its purchase failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeededRandom } from '@lottery/contracts';
import type { Hex } from '@lottery/domain';
import { createAccountsDataSource, type GrantRecord, PartnersService } from '@lottery/persistence';
import {
  eventually,
  type GiveawayChain,
  jsonOf,
  runOps,
  startApiProcess,
  startGiveawayChain,
  testWallets,
} from '@lottery/pipeline-testing';
import { createTestDatabase, redisForSuite, startRpcFaultProxy, type RpcFaultProxy } from '@lottery/testing';
import type { ReliabilitySuite, SuiteContext, SuiteOutcome } from '../lib/suite';

const QUANTITY = 10;
const PER_WALLET = 1;
const POSTS = 50;
const WALLETS = 20;
/** Share of the signer's RPC calls failed, drawn per race from the seed. */
const FAULT_RATES = { min: 0.1, max: 0.4 };
/** A partner's server retries a failed purchase (HTTP 5xx) this many times, as any client of a flaky API does. */
const CLIENT_RETRIES = 3;
const PARTNER_PATH = '/api/v1/giveaways/partner-free-tickets';

/** timedOut: 504, the purchase carries on in the signer; failed: any other answer, e.g. 500 with the grant released. */
type Answer = 'purchased' | 'refused' | 'timedOut' | 'failed' | 'unanswered';

interface RaceResult {
  posts: number;
  answers: Record<Answer, number>;
  faultsInjected: number;
  issuedOnChain: number;
  walletsOverMax: number;
  reservationsLeaked: number;
  reservationsReleased: number;
  /** What the failed POSTs were answered (status and body), for the log. */
  failedBecause: Record<string, number>;
  /** Why released grants failed (the ledger's error text), for the log. */
  releasedBecause: Record<string, number>;
  failures: string[];
}

export const partnerRace: ReliabilitySuite = {
  name: 'partner-race',
  async run(context: SuiteContext): Promise<SuiteOutcome> {
    const races = context.quick ? 1 : 5;
    const database = await createTestDatabase('rel_partner_race');
    const redis = redisForSuite('rel_partner_race');
    const dataDir = mkdtempSync(join(tmpdir(), 'rel-partner-race-'));
    const closers: (() => Promise<unknown>)[] = [
      () => database.drop(),
      () => redis.cleanup(),
      async () => rmSync(dataDir, { recursive: true, force: true }),
    ];
    try {
      const chain = await startGiveawayChain();
      closers.unshift(() => chain.stop());
      const proxy = await startRpcFaultProxy(chain.anvil.rpcUrl, {}, context.seed);
      closers.unshift(() => proxy.close());
      // One API process for every race (the production shape: it takes requests and signs), its RPC behind
      // the fault proxy; each race changes the proxy's fault rate.
      const api = await startApiProcess({
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: redis.prefix,
        ...chain.apiEnv(proxy.url),
      });
      closers.unshift(() => api.stop());
      const ledger = await createAccountsDataSource({ url: database.url, poolSize: 2 }).initialize();
      closers.unshift(() => ledger.destroy());
      const partners = new PartnersService(ledger, 'lt');
      const opsEnv = { DATABASE_URL: database.url, DATA_DIR: dataDir };

      const random = new SeededRandom(`partner-race:${context.seed}`);
      const results: RaceResult[] = [];
      for (let race = 1; race <= races; race++) {
        const failRate = FAULT_RATES.min + random.float() * (FAULT_RATES.max - FAULT_RATES.min);
        const result = await runRace({ race, failRate, random, api: api.url, proxy, chain, partners, opsEnv });
        context.log(
          `race ${race}: fail rate ${failRate.toFixed(2)}, ${JSON.stringify(result.answers)}, ` +
            `${result.faultsInjected} RPC faults, ${result.issuedOnChain} issued on chain, ` +
            `POSTs failed with ${JSON.stringify(result.failedBecause)}, released: ${JSON.stringify(result.releasedBecause)}`,
        );
        results.push(result);
      }
      return outcome(results, context.quick);
    } finally {
      for (const close of closers) await close().catch(() => undefined);
    }
  },
};

interface RaceSetup {
  race: number;
  failRate: number;
  random: SeededRandom;
  api: string;
  proxy: RpcFaultProxy;
  chain: GiveawayChain;
  partners: PartnersService;
  opsEnv: NodeJS.ProcessEnv;
}

async function runRace(setup: RaceSetup): Promise<RaceResult> {
  const { race, api, proxy, chain, partners } = setup;
  const created = jsonOf<{ id: number; apiKey: string }>(
    await runOps(
      [
        ...['partners', 'create', '--name', `race ${race}`, '--quantity', String(QUANTITY)],
        ...['--per-wallet', String(PER_WALLET), '--json'],
      ],
      setup.opsEnv,
    ),
  );
  const wallets = testWallets(WALLETS, 900 + race);
  // Every wallet at least twice, in a seeded order: the same wallet races itself as well as the others.
  const targets = Array.from({ length: POSTS }, (_, i) => wallets[i % WALLETS]);
  shuffle(targets, setup.random);

  const injectedBefore = proxy.stats.injectedFailures;
  proxy.faults.failRate = setup.failRate;
  const answers: Record<Answer, number> = { purchased: 0, refused: 0, timedOut: 0, failed: 0, unanswered: 0 };
  const tally = (answer: Answer) => (answers[answer] += 1);
  const failedAnswers: string[] = [];
  let retryable = (
    await Promise.all(targets.map((wallet) => purchase(api, created.apiKey, wallet, failedAnswers)))
  ).flatMap((answer, i) => (tally(answer), retried(answer) ? [targets[i]] : []));
  for (let retry = 0; retry < CLIENT_RETRIES && retryable.length > 0; retry++) {
    const again = await Promise.all(retryable.map((wallet) => purchase(api, created.apiKey, wallet, failedAnswers)));
    again.forEach(tally);
    retryable = retryable.filter((_, i) => retried(again[i]));
  }
  const posts = Object.values(answers).reduce((a, b) => a + b, 0);
  // Purchases whose POST timed out or failed carry on in the signer: wait for the ledger to settle, faults on.
  const settled = await eventually(
    async () => {
      const grants = await partners.grants({ partnerId: created.id });
      return grants.every((g) => g.status === 'succeeded' || g.status === 'failed') && grants;
    },
    `race ${race}'s grants to settle`,
    180_000,
  ).catch(() => null);
  const faultsInjected = proxy.stats.injectedFailures - injectedBefore;
  proxy.faults.failRate = 0;

  const grants = settled ?? (await partners.grants({ partnerId: created.id }));
  const partner = await partners.get(created.id);
  const onChain = await chain.partnerTickets(created.id);
  return {
    posts,
    answers,
    faultsInjected,
    issuedOnChain: onChain.length,
    walletsOverMax: walletsOver(
      onChain.map((t) => t.recipient),
      grants.filter((g) => g.status !== 'failed').map((g) => g.wallet),
    ),
    reservationsLeaked: grants.filter((g) => g.status === 'pending' || g.status === 'sent').length,
    failedBecause: countBy(failedAnswers),
    reservationsReleased: grants.filter((g) => g.status === 'failed').length,
    releasedBecause: countBy(grants.filter((g) => g.status === 'failed').map((g) => g.error ?? 'no error recorded')),
    failures: [
      ...check(race, grants, partner.quantityLeft, onChain),
      ...(answers.unanswered > 0 ? [`race ${race}: ${answers.unanswered} POSTs got no answer (reset or hung)`] : []),
    ],
  };
}

/** A partner's server tries again after a 5xx; a timed-out purchase then answers with the wallet's limit. */
const retried = (answer: Answer) => answer === 'failed' || answer === 'timedOut';

/** One POST as a partner's server sends it; a reset or hung connection is an answer too ('unanswered'). */
async function purchase(api: string, key: string, wallet: Hex, failedAnswers: string[]): Promise<Answer> {
  try {
    const response = await fetch(`${api}${PARTNER_PATH}/${wallet}`, {
      method: 'POST',
      headers: { apikey: key },
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    const body = JSON.parse(text) as { success?: boolean; eligible?: boolean };
    if (response.status === 200 && body.success === true) return 'purchased';
    if (response.status === 200 && body.eligible === false) return 'refused';
    if (response.status === 504) return 'timedOut';
    failedAnswers.push(`${response.status} ${text.slice(0, 200)}`);
    return 'failed';
  } catch {
    return 'unanswered';
  }
}

function countBy(items: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

/** Wallets holding more than their maximum, by the chain's tickets or by the ledger's live grants. */
function walletsOver(...holdings: string[][]): number {
  const over = new Set<string>();
  for (const wallets of holdings)
    for (const [wallet, count] of Object.entries(countBy(wallets))) if (count > PER_WALLET) over.add(wallet);
  return over.size;
}

/**
 * The race's invariants. "Released" is what the ledger does for a purchase that can never be mined: the
 * grant is `failed` and its ticket is back in `quantity_left`, so the partner's books always read
 * quantity_left + live grants == quantity; a grant still pending or sent after settling is a leak.
 */
function check(
  race: number,
  grants: GrantRecord[],
  quantityLeft: number,
  onChain: { recipient: Hex; txHash: Hex }[],
): string[] {
  const failures: string[] = [];
  const fail = (message: string) => failures.push(`race ${race}: ${message}`);
  const live = grants.filter((g) => g.status !== 'failed');
  const succeeded = grants.filter((g) => g.status === 'succeeded');
  if (onChain.length !== QUANTITY) fail(`${onChain.length} tickets issued on chain, expected ${QUANTITY}`);
  if (quantityLeft + live.length !== QUANTITY)
    fail(`quantity left ${quantityLeft} + ${live.length} live grants != ${QUANTITY}: a reservation was not released`);
  const unsettled = grants.filter((g) => g.status === 'pending' || g.status === 'sent');
  if (unsettled.length > 0) fail(`grants never settled: ${unsettled.map((g) => `${g.id} ${g.status}`).join(', ')}`);
  const ledger = succeeded.map((g) => `${g.wallet} ${g.txHash}`).sort();
  const chain = onChain.map((t) => `${t.recipient} ${t.txHash}`).sort();
  if (ledger.join() !== chain.join())
    fail(`succeeded grants and on-chain tickets differ: ledger ${ledger.join('; ')} vs chain ${chain.join('; ')}`);
  const over = walletsOver(
    onChain.map((t) => t.recipient),
    live.map((g) => g.wallet),
  );
  if (over > 0) fail(`${over} wallets hold more than ${PER_WALLET} ticket`);
  return failures;
}

function shuffle<T>(items: T[], random: SeededRandom): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j], items[i]];
  }
}

function outcome(results: RaceResult[], quick: boolean): SuiteOutcome {
  const sum = (pick: (r: RaceResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const figures = {
    partner_races: results.length,
    partner_posts: sum((r) => r.posts),
    partner_issued: sum((r) => r.issuedOnChain),
    partner_wallets_over_max: sum((r) => r.walletsOverMax),
    partner_reservations_leaked: sum((r) => r.reservationsLeaked),
    partner_rpc_faults_injected: sum((r) => r.faultsInjected),
    partner_posts_failed: sum((r) => r.answers.failed),
    partner_posts_timed_out: sum((r) => r.answers.timedOut),
    partner_reservations_released: sum((r) => r.reservationsReleased),
  };
  return {
    title: 'Partner race',
    intro:
      `${results.length} race${results.length === 1 ? '' : 's'} of ${POSTS} concurrent POSTs over ${WALLETS} wallets ` +
      `for a partner (made with \`ops partners create\`) with ${QUANTITY} tickets and ${PER_WALLET} per wallet, ` +
      `against the API process on Postgres, Redis and anvil, its RPC failing ${FAULT_RATES.min * 100}–` +
      `${FAULT_RATES.max * 100} % of calls; a failed POST is retried up to ${CLIENT_RETRIES} times. ` +
      `Checked on the ledger and on chain${quick ? ' (quick: one race)' : ''}.`,
    rows: [
      { figure: 'races', value: String(figures.partner_races) },
      { figure: 'POSTs (incl. client retries)', value: String(figures.partner_posts) },
      {
        figure: 'tickets issued on chain',
        value: String(figures.partner_issued),
        note: `${QUANTITY} per race expected`,
      },
      { figure: 'wallets over their maximum', value: String(figures.partner_wallets_over_max) },
      { figure: 'reservations leaked', value: String(figures.partner_reservations_leaked) },
      { figure: 'POSTs failed (5xx other than 504)', value: String(figures.partner_posts_failed) },
      {
        figure: 'POSTs timed out (504)',
        value: String(figures.partner_posts_timed_out),
        note: 'the purchase carries on in the signer',
      },
      { figure: 'reservations released (failed grants)', value: String(figures.partner_reservations_released) },
      { figure: 'RPC faults injected', value: String(figures.partner_rpc_faults_injected) },
    ],
    figures,
    failures: results.flatMap((r) => r.failures),
  };
}
