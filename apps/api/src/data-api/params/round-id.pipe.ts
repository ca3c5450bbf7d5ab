import { Injectable, type PipeTransform } from '@nestjs/common';
import { ApiError } from '../../http/api-error';
import { UINT256_MAX } from './storage-bounds';

const ROUND_ID = /^\d+$/;

/**
 * `{roundId}` → bigint. Not digits: 400 invalid_request (malformed). Digits beyond uint256: 422
 * validation_failed (well-formed, but no round can have that id). Everything else is looked up.
 */
@Injectable()
export class RoundIdPipe implements PipeTransform<string, bigint> {
  transform(value: string): bigint {
    if (!ROUND_ID.test(value)) throw new ApiError('invalid_request', 'roundId must be a string of digits');
    const id = BigInt(value);
    if (id > UINT256_MAX) throw new ApiError('validation_failed', 'roundId exceeds the uint256 range of round ids');
    return id;
  }
}
