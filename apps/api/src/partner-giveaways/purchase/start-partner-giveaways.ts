import type { GiveawaysConfig } from '../../config/giveaways-config';
import type { AppLogger } from '../../logger';
import type { PartnerLedger } from '../partner-ledger';
import type { PartnerGiveaways } from '../partner-giveaways.token';
import { BullmqPurchaseQueue, BullmqPurchaseWorker } from './bullmq-purchase-queue';
import { FreeTicketPurchase } from './free-ticket-purchase';
import { GrantRecovery } from './grant-recovery';
import { InProcessPurchaseQueue } from './in-process-purchase-queue';
import { type AttemptPolicy, DEFAULT_ATTEMPT_POLICY } from './purchase-attempts';
import type { PurchaseQueue, PurchaseWorker, StopOptions } from './purchase-queue';
import { TicketBuyerChain } from './ticket-buyer-chain';

/** Knobs with production defaults; tests shorten them. */
export interface PurchaseTuning {
  policy: AttemptPolicy;
  recoveryIntervalMs: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  receiptPollMs: number;
  /** One JSON-RPC call's timeout (a hung node counts as a transport failure, retried). */
  rpcTimeoutMs: number;
  rpcRetryBaseMs: number;
  /** How long a transaction waits unmined before its fees are compared with the network's. */
  feeBumpAfterMs: number;
  /** Whether this process signs (runs the worker); replicas that only take requests can leave it off. */
  runWorker: boolean;
}

const DEFAULT_PURCHASE_TUNING: PurchaseTuning = {
  policy: DEFAULT_ATTEMPT_POLICY,
  recoveryIntervalMs: 60_000,
  lockDurationMs: 30_000,
  stalledIntervalMs: 30_000,
  receiptPollMs: 500,
  rpcTimeoutMs: 10_000,
  rpcRetryBaseMs: 100,
  feeBumpAfterMs: 15_000,
  runWorker: true,
};

export interface GiveawaysRuntimeOptions {
  config: GiveawaysConfig;
  ledger: PartnerLedger;
  logger: AppLogger;
  /** bullmq on this Redis; null = the in-process queue (embedded default). */
  redis: { url: string; keyPrefix: string } | null;
  tuning?: Partial<PurchaseTuning>;
}

export interface GiveawaysRuntime {
  giveaways: PartnerGiveaways;
  /** null when this process does not sign. */
  worker: PurchaseWorker | null;
  recovery: GrantRecovery | null;
  /** Stops recovery, lets the purchase in progress finish (within the grace), closes the queue. */
  close(options?: StopOptions): Promise<void>;
}

/** Wires the partner giveaway: ledger, chain, queue (bullmq or in-process), signer and recovery. */
export function startPartnerGiveaways(options: GiveawaysRuntimeOptions): GiveawaysRuntime {
  const tuning = { ...DEFAULT_PURCHASE_TUNING, ...options.tuning };
  const { config, ledger, logger } = options;
  const purchase = new FreeTicketPurchase(ledger, new TicketBuyerChain(config, tuning.rpcTimeoutMs), logger, {
    attemptTimeoutMs: config.jobTimeoutMs,
    receiptPollMs: tuning.receiptPollMs,
    rpcRetryBaseMs: tuning.rpcRetryBaseMs,
    feeBumpAfterMs: tuning.feeBumpAfterMs,
  });

  let queue: PurchaseQueue;
  let worker: PurchaseWorker | null = null;
  let beforeSweep: () => Promise<void> = async () => undefined;
  if (options.redis) {
    const bullmq = { redisUrl: options.redis.url, prefix: `${options.redis.keyPrefix}bull`, policy: tuning.policy };
    const producer = BullmqPurchaseQueue.create(bullmq, logger);
    queue = producer;
    beforeSweep = () => producer.limitToOneSigner();
    if (tuning.runWorker) worker = BullmqPurchaseWorker.start(purchase, { ...bullmq, ...tuning }, logger);
  } else {
    const inProcess = new InProcessPurchaseQueue(purchase, tuning.policy, logger);
    queue = inProcess;
    worker = inProcess;
  }
  const recovery = worker ? new GrantRecovery(ledger, queue, logger, tuning.recoveryIntervalMs, beforeSweep) : null;
  recovery?.start();

  return {
    giveaways: { ledger, queue, jobTimeoutMs: config.jobTimeoutMs },
    worker,
    recovery,
    async close(stopOptions) {
      await recovery?.stop();
      await worker?.stop(stopOptions);
      await queue.close();
    },
  };
}
