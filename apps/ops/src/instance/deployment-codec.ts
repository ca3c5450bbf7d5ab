import type { LotteryDeployment } from '@lottery/contracts';

/** The deployment (bigints included) as JSON for the data folder's state file, and back. */
export function encodeDeployment(deployment: LotteryDeployment): unknown {
  return JSON.parse(
    JSON.stringify(deployment, (_key, value: unknown) =>
      typeof value === 'bigint' ? { $bigint: value.toString() } : value,
    ),
  );
}

export function decodeDeployment(stored: unknown): LotteryDeployment {
  return JSON.parse(JSON.stringify(stored), (_key, value: unknown) =>
    value !== null && typeof value === 'object' && '$bigint' in value
      ? BigInt((value as { $bigint: string }).$bigint)
      : value,
  ) as LotteryDeployment;
}
