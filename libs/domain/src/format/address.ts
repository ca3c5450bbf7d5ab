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

/** How addresses leave the Data API: EIP-55 checksummed. */
export function checksumAddress(value: string): Hex {
  return getAddress(normalizeAddress(value));
}
