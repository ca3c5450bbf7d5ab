import { ApiProperty } from '@nestjs/swagger';
import { PATTERNS } from '../../data-api/dto/api-properties';

/** The pool API returns addresses lowercase, as it validates and stores them (spec). */
const LOWERCASE_ADDRESS_PATTERN = '^0x[a-f0-9]{40}$';

export const ApiLowercaseAddress = (description: string) =>
  ApiProperty({
    type: 'string',
    pattern: LOWERCASE_ADDRESS_PATTERN,
    description: `${description} (lowercase)`,
    example: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
  });

/** The spec leaves the format open; we use the Data API's: ISO 8601 UTC with milliseconds. */
export const ApiPoolTimestamp = (description: string) =>
  ApiProperty({
    type: 'string',
    pattern: PATTERNS.timestamp,
    description: `${description}; ISO 8601 UTC with milliseconds`,
    example: '2026-01-02T03:04:05.678Z',
  });
