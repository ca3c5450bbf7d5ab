import type { Hex } from '@lottery/domain';
import type { ProjectionStore, WalletDelta, WalletRoundTally } from '@lottery/persistence';
import { referralSplits } from '../fold/ticket-rules';
import { emptyWalletDelta, walletFromTallies } from '../fold/wallet-rules';

/**
 * Recomputes the stats of the wallets a revert touched from the rows that remain, with the same rules
 * as the forward fold; referral fees are not kept as rows, so the reverted fees are subtracted instead.
 * Wallets left with nothing lose their row, as if the reverted blocks had never been seen.
 */
export async function recomputeWallets(
  store: ProjectionStore,
  wallets: readonly Hex[],
  revertedFees: ReadonlyMap<Hex, bigint>,
): Promise<void> {
  if (wallets.length === 0) return;
  const affected = new Set(wallets);
  const tallies = await store.revert.walletRoundTallies(wallets);
  const talliesOf = new Map<Hex, WalletRoundTally[]>();
  for (const t of tallies) {
    const list = talliesOf.get(t.address);
    if (list) list.push(t);
    else talliesOf.set(t.address, [t]);
  }
  const rounds = new Map((await store.reads.rounds([...new Set(tallies.map((t) => t.roundId))])).map((r) => [r.id, r]));
  const pending = new Map<Hex, bigint>();
  for (const p of await store.revert.pendingReferrals(wallets)) {
    for (const [referrer, amount] of referralSplits(p.referralShare, p)) {
      if (affected.has(referrer)) pending.set(referrer, (pending.get(referrer) ?? 0n) + amount);
    }
  }
  await store.revert.replaceWalletStats(
    wallets.map((address) =>
      walletFromTallies(address, talliesOf.get(address) ?? [], rounds, pending.get(address) ?? 0n),
    ),
  );
  await store.writes.applyWalletDeltas([...revertedFees].map(([address, fees]) => feeReversal(address, fees)));
  await store.revert.deleteEmptyWallets(wallets);
}

function feeReversal(address: Hex, fees: bigint): WalletDelta {
  return { ...emptyWalletDelta(address), referralFees: -fees };
}
