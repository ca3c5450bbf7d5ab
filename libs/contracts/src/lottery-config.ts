import { FRACTION_SCALE, USDC_DECIMALS } from '@lottery/domain';

/**
 * Parameters of a local lottery deployment. Defaults resemble Megapot's (1 USDC tickets, 5 of 30 + a bonusball,
 * daily draws); the payout multiples keep the expected payout near 55% of the ticket price, so LPs profit.
 */
export interface LotteryConfig {
  /** USDC units (6 decimals). */
  ticketPrice: bigint;
  normalBallMax: number;
  bonusballMax: number;
  drawingDurationSeconds: bigint;
  /** 1e18-scaled fractions. */
  lpEdgeTarget: bigint;
  reserveRatio: bigint;
  referralFee: bigint;
  referralWinShare: bigint;
  protocolFee: bigint;
  /** USDC units of LP profit per drawing before the protocol fee applies. */
  protocolFeeThreshold: bigint;
  maxReferrers: bigint;
  /** Gross payout of tiers 0..10 in ticket prices (tier 11, the jackpot, pays the prize pool). */
  tierMultiples: readonly bigint[];
  /** USDC the deployer provides as the first LP before drawing 1 opens. */
  initialLpDeposit: bigint;
  /** USDC the deployer keeps to pay for the daily pool's tickets. */
  operatorFloat: bigint;
}

/** One USDC in its smallest unit. */
export const USDC_UNIT = 10n ** BigInt(USDC_DECIMALS);
const USDC = USDC_UNIT;
const percent = (value: bigint): bigint => (value * FRACTION_SCALE) / 100n;

export const DEFAULT_LOTTERY_CONFIG: LotteryConfig = {
  ticketPrice: 1n * USDC,
  normalBallMax: 30,
  bonusballMax: 10,
  drawingDurationSeconds: 86_400n,
  lpEdgeTarget: percent(30n),
  reserveRatio: percent(20n),
  referralFee: percent(10n),
  referralWinShare: percent(5n),
  protocolFee: percent(10n),
  protocolFeeThreshold: 0n,
  maxReferrers: 5n,
  tierMultiples: [0n, 1n, 0n, 1n, 1n, 2n, 5n, 20n, 50n, 500n, 10_000n, 0n],
  initialLpDeposit: 1_000_000n * USDC,
  operatorFloat: 100_000n * USDC,
};
