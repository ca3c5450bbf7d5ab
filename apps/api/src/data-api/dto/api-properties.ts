import { ApiProperty } from '@nestjs/swagger';
import { AmountDto } from './amount.dto';

/** The spec's shared scalar types, as OpenAPI patterns. One definition each, used by DTOs and params. */
export const PATTERNS = {
  roundId: '^\\d+$',
  digits: '^\\d+$',
  address: '^0x[a-fA-F0-9]{40}$',
  txHash: '^0x[a-fA-F0-9]{64}$',
  timestamp: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
  cursor: '^[A-Za-z0-9_-]+$',
} as const;

/** Count / integer fields: 0..2^53-1 unless a tighter bound is given. */
const MAX_INTEGER = Number.MAX_SAFE_INTEGER;

interface Nullable {
  nullable?: boolean;
  description?: string;
}

/** Only nullable fields mention `nullable`, so the document says nothing it need not. */
const nullable = (o: Nullable): { nullable?: true } => (o.nullable ? { nullable: true } : {});

export const ApiInteger = (o: Nullable & { minimum?: number; maximum?: number } = {}) =>
  ApiProperty({
    type: 'integer',
    minimum: o.minimum ?? 0,
    maximum: o.maximum ?? MAX_INTEGER,
    ...nullable(o),
    description: o.description,
  });

export const ApiDigits = (description?: string) =>
  ApiProperty({ type: 'string', pattern: PATTERNS.digits, minLength: 1, description });

export const ApiRoundId = (description = 'Round identifier') =>
  ApiProperty({ type: 'string', pattern: PATTERNS.roundId, minLength: 1, description, example: '42' });

export const ApiAddress = (description: string) =>
  ApiProperty({
    type: 'string',
    pattern: PATTERNS.address,
    description: `${description} (EIP-55 checksummed)`,
    example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  });

export const ApiTxHash = (o: Nullable = {}) =>
  ApiProperty({ type: 'string', pattern: PATTERNS.txHash, ...nullable(o), description: o.description });

export const ApiTimestamp = (o: Nullable = {}) =>
  ApiProperty({
    type: 'string',
    pattern: PATTERNS.timestamp,
    ...nullable(o),
    description: o.description,
    example: '2026-01-02T03:04:05.678Z',
  });

export const ApiAmount = (o: Nullable = {}) =>
  ApiProperty({ type: () => AmountDto, ...nullable(o), description: o.description });

export const ApiBoolean = (o: Nullable = {}) =>
  ApiProperty({ type: 'boolean', ...nullable(o), description: o.description });

/** A fixed-length array of small integers (ticket and winning numbers). */
export const ApiNumbers = (count: number, description: string) =>
  ApiProperty({
    type: 'array',
    items: { type: 'integer', minimum: 1, maximum: MAX_INTEGER },
    minItems: count,
    maxItems: count,
    description,
  });
