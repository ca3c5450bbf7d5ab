import { createAccountsDataSource, type GrantRecord, migrateAccounts, PartnersService } from '@lottery/persistence';
import { createTestDatabase, redisForSuite, type SuiteRedis, type TestDatabase } from '@lottery/testing';
import type { DataSource } from 'typeorm';
import type { GiveawaysConfig } from '../../src/config/giveaways-config';
import { createAppLogger } from '../../src/logger';
import {
  type GiveawaysRuntime,
  type PurchaseTuning,
  startPartnerGiveaways,
} from '../../src/partner-giveaways/purchase/start-partner-giveaways';
import type { PartnerLedger } from '../../src/partner-giveaways/partner-ledger';
import { type PartnerChain, startPartnerChain } from './partner-chain';
import { startTestApp, type TestApp } from './test-app';

/** Fast enough for tests: crashed jobs are picked up within ~2 s, lost ones re-queued every 0.5 s. */
export const FAST_TUNING: Partial<PurchaseTuning> = {
  policy: { attempts: 5, backoffMs: 200 },
  recoveryIntervalMs: 500,
  lockDurationMs: 1500,
  stalledIntervalMs: 500,
  receiptPollMs: 50,
  rpcTimeoutMs: 1000,
  rpcRetryBaseMs: 20,
};

export const PARTNER_PREFIX = '/api/v1/giveaways/partner-free-tickets';

export interface RuntimeOptions {
  /** Defaults to the suite's Redis; null = the in-process queue. */
  redis?: { url: string; keyPrefix: string } | null;
  config?: Partial<GiveawaysConfig>;
  tuning?: Partial<PurchaseTuning>;
  /** Defaults to the suite's PartnersService (a test wraps it to make one of its calls fail). */
  ledger?: PartnerLedger;
}

/**
 * The real pieces of the partner API for one suite: a fresh Postgres database with the accounts schema,
 * anvil with the lottery, the suite's Redis prefix; and runtimes and apps it closes at the end.
 */
export class PartnerHarness {
  readonly logger = createAppLogger(process.env['LOG_LEVEL'] === undefined ? 'silent' : 'info');
  readonly redis: SuiteRedis;
  private readonly closers: (() => Promise<void>)[] = [];

  private constructor(
    readonly database: TestDatabase,
    readonly dataSource: DataSource,
    readonly partners: PartnersService,
    readonly chain: PartnerChain,
    label: string,
  ) {
    this.redis = redisForSuite(label);
  }

  static async start(label: string): Promise<PartnerHarness> {
    const [database, chain] = await Promise.allSettled([createTestDatabase(label), startPartnerChain()]);
    try {
      if (database.status === 'rejected') throw database.reason;
      if (chain.status === 'rejected') throw chain.reason;
      // Enough connections for 50 concurrent requests queueing on one partner's row lock.
      const dataSource = await createAccountsDataSource({ url: database.value.url, poolSize: 20 }).initialize();
      await migrateAccounts(dataSource);
      const partners = new PartnersService(dataSource, 'lt');
      return new PartnerHarness(database.value, dataSource, partners, chain.value, label);
    } catch (error) {
      // A half-started harness must not leave anvil running: it would keep Jest from exiting.
      if (chain.status === 'fulfilled') await chain.value.stop();
      if (database.status === 'fulfilled') await database.value.drop();
      throw error;
    }
  }

  runtime(options: RuntimeOptions = {}): GiveawaysRuntime {
    const runtime = startPartnerGiveaways({
      config: { ...this.chain.config, ...options.config },
      ledger: options.ledger ?? this.partners,
      logger: this.logger,
      redis: options.redis === undefined ? { url: this.redis.url, keyPrefix: this.redis.prefix } : options.redis,
      tuning: { ...FAST_TUNING, ...options.tuning },
    });
    // Tests do not wait for purchases in progress: the database they would write to is dropped next.
    this.closers.unshift(() => runtime.close({ graceMs: 0 }));
    return runtime;
  }

  /** The suite's ledger with some of its calls replaced (to make one fail, say): the others are its own. */
  ledgerWith(calls: Partial<PartnerLedger>): PartnerLedger {
    return Object.assign(Object.create(this.partners) as PartnersService, calls);
  }

  async api(runtime: GiveawaysRuntime | null): Promise<TestApp> {
    const app = await startTestApp({ giveaways: runtime?.giveaways });
    this.closers.unshift(() => app.close());
    return app;
  }

  /** Runs at close, after everything started later (runtimes and apps close first, newest first). */
  onClose(close: () => Promise<void>): void {
    this.closers.unshift(close);
  }

  /** Ledger, quantity and chain agree: every non-failed grant holds one ticket, each succeeded one is mined. */
  async expectConsistent(partnerId: number, quantityGiven: number): Promise<GrantRecord[]> {
    const grants = await this.partners.grants({ partnerId });
    const partner = await this.partners.get(partnerId);
    const live = grants.filter((g) => g.status !== 'failed');
    expect(partner.quantityLeft + live.length).toBe(quantityGiven);
    const succeeded = grants.filter((g) => g.status === 'succeeded');
    const onChain = await this.chain.partnerTickets(partnerId);
    expect(onChain.map((t) => `${t.recipient} ${t.txHash}`).sort()).toEqual(
      succeeded.map((g) => `${g.wallet} ${g.txHash}`).sort(),
    );
    for (const grant of succeeded) {
      const receipt = await this.chain.client.getTransactionReceipt({ hash: grant.txHash as `0x${string}` });
      expect(receipt.status).toBe('success');
    }
    const perWallet = new Map<string, number>();
    for (const grant of live) perWallet.set(grant.wallet, (perWallet.get(grant.wallet) ?? 0) + 1);
    expect(Math.max(0, ...perWallet.values())).toBeLessThanOrEqual(partner.perWalletMax);
    return grants;
  }

  /** Closes what the harness started since the last call (runtimes, apps, onClose work), newest first. */
  async stopStarted(): Promise<void> {
    const closers = this.closers.splice(0);
    for (const close of closers) await close().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.stopStarted();
    await this.dataSource?.destroy();
    await Promise.allSettled([this.database.drop(), this.chain.stop(), this.redis.cleanup()]);
  }
}

export const post = (api: TestApp, key: string | null, wallet: string) =>
  api.request({ method: 'POST', url: `${PARTNER_PREFIX}/${wallet}`, headers: key === null ? {} : { apikey: key } });

export const get = (api: TestApp, key: string | null, wallet: string) =>
  api.request({ method: 'GET', url: `${PARTNER_PREFIX}/${wallet}`, headers: key === null ? {} : { apikey: key } });
