import { getAddress } from 'viem';
import type { Hex } from '../events/lottery-events';

const ADDRESS_SHAPE = /^0x[a-fA-F0-9]{40}$/;

/** Input addresses are validated by shape only (any letter case), as the spec says. */
export function isAddressShape(value: string): boolean {
  return ADDRESS_SHAPE.test(value);
}

/** How addresses are stored and compared: lowercase. */
export function normalizeAddress(value: string): Hex {
  if (!isAddressShape(value)) throw new RangeError(`not an address: ${value}`);
  return value.toLowerCase() as Hex;
}

// Pages repeat the same wallets, and a checksum is a keccak; viem's own cache is smaller than one
// data set's wallets and reorders itself on every hit. Cleared when full: bounded, and no eviction work.
const CHECKSUM_CACHE_LIMIT = 100_000;
const checksummed = new Map<string, Hex>();

/** How addresses leave the Data API: EIP-55 checksummed. */
export function checksumAddress(value: string): Hex {
  const known = checksummed.get(value);
  if (known !== undefined) return known;
  const address = getAddress(normalizeAddress(value));
  if (checksummed.size >= CHECKSUM_CACHE_LIMIT) checksummed.clear();
  checksummed.set(value, address);
  return address;
}
