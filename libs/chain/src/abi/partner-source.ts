import type { Hex } from '@lottery/domain';
import { numberToHex } from 'viem';

/**
 * The `source` of a partner's free ticket purchase: the partner id as a bytes32 (a uint256), so every
 * ticket the giveaway buys can be traced on chain to the partner that granted it.
 */
export function partnerSource(partnerId: number): Hex {
  return numberToHex(partnerId, { size: 32 });
}
