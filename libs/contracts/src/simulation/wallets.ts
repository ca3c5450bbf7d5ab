/**
 * The simulated population: addresses derived from the seed (no private keys: anvil impersonates them), funded
 * with ETH for gas and test USDC, with the Jackpot and the random ticket buyer approved once.
 */
import { type Address, getAddress, keccak256, maxUint256, parseEther, toHex } from 'viem';
import type { LotteryDeployment } from '../deploy';
import type { LotteryWriters } from '../rpc/contract-writers';
import type { LotteryRpc } from '../rpc/lottery-rpc';

export interface WalletCounts {
  players: number;
  referrers: number;
  lps: number;
}

export interface SimulationWallets {
  /** Buy tickets (for themselves or others), receive and transfer tickets, claim, enter the daily pool. */
  players: Address[];
  /** Named in referral schemes; collect purchase fees and claim bonuses, claim them sometimes. */
  referrers: Address[];
  /** Deposit, request withdrawals and finalize them. */
  lps: Address[];
}

export const DEFAULT_WALLET_COUNTS: WalletCounts = { players: 16, referrers: 5, lps: 3 };

function deriveAddress(seed: string | number, role: string, index: number): Address {
  return getAddress(`0x${keccak256(toHex(`lottery-simulator:${seed}:${role}:${index}`)).slice(-40)}`);
}

export function deriveWallets(seed: string | number, counts: WalletCounts): SimulationWallets {
  const derive = (role: string, count: number): Address[] =>
    Array.from({ length: count }, (_, i) => deriveAddress(seed, role, i));
  return {
    players: derive('player', counts.players),
    referrers: derive('referrer', counts.referrers),
    lps: derive('lp', counts.lps),
  };
}

/** Makes `wallets` usable: impersonated, gas money, `usdcEach` test USDC, spenders approved. */
export async function fundWallets(
  rpc: LotteryRpc,
  writers: LotteryWriters,
  deployment: LotteryDeployment,
  wallets: readonly Address[],
  usdcEach: bigint,
): Promise<void> {
  const { jackpot, randomTicketBuyer } = deployment.addresses;
  for (const wallet of wallets) {
    await rpc.testClient.impersonateAccount({ address: wallet });
    await rpc.testClient.setBalance({ address: wallet, value: parseEther('100') });
    await writers.usdc(wallet, 'mint', [wallet, usdcEach]);
    await writers.usdc(wallet, 'approve', [jackpot, maxUint256]);
    await writers.usdc(wallet, 'approve', [randomTicketBuyer, maxUint256]);
  }
}
