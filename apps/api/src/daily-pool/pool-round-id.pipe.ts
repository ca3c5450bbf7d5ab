import { Injectable, type PipeTransform } from '@nestjs/common';
import { PlainApiError } from '../http/plain-api-error';

const DIGITS = /^\d+$/;

/**
 * `{roundId}` → bigint. Digits only (no sign, no decimals, no exponent) and at most 2^53−1: the pool API
 * returns round ids as JSON integers, and no larger id could be echoed back exactly. Anything else is
 * 400 "Invalid round id"; a well-formed id of no round is 404 "Round not found".
 */
@Injectable()
export class PoolRoundIdPipe implements PipeTransform<string, bigint> {
  transform(value: string): bigint {
    if (!DIGITS.test(value) || BigInt(value) > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new PlainApiError(400, 'Invalid round id');
    }
    return BigInt(value);
  }
}
