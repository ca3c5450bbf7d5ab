import { Injectable, type PipeTransform } from '@nestjs/common';
import { ApiError } from '../../http/api-error';

const ROUND_ID = /^\d+$/;

/**
 * `{roundId}` → bigint. Not digits: 400 invalid_request (malformed). Any digits are a RoundId (the spec
 * bounds it by nothing): an id no round can have, beyond uint256, is absent, 404 like any other.
 */
@Injectable()
export class RoundIdPipe implements PipeTransform<string, bigint> {
  transform(value: string): bigint {
    if (!ROUND_ID.test(value)) throw new ApiError('invalid_request', 'roundId must be a string of digits');
    return BigInt(value);
  }
}

export const ROUND_ID_PIPE = new RoundIdPipe();
