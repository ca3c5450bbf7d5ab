/** The Data API's Amount: an integer in the smallest unit as a digits-only string, plus its decimals. */
export interface Amount {
  amount: string;
  decimals: number;
}

/** USDC, the lottery's currency, has 6 decimals. */
export const USDC_DECIMALS = 6;

export function toAmount(value: bigint | string, decimals = USDC_DECIMALS): Amount {
  const v = typeof value === 'bigint' ? value : BigInt(value);
  if (v < 0n) throw new RangeError(`amounts are never negative, got ${v}`);
  return { amount: v.toString(), decimals };
}
