import { Injectable, type PipeTransform } from '@nestjs/common';
import { type Hex, isAddressShape, normalizeAddress } from '@lottery/domain';
import { ApiError } from '../../http/api-error';

/** `{address}` → lowercase Hex. Any letter case is accepted; only the shape is validated (spec). */
@Injectable()
export class AddressPipe implements PipeTransform<string, Hex> {
  transform(value: string): Hex {
    if (!isAddressShape(value))
      throw new ApiError('invalid_address', 'address must be 0x followed by 40 hex characters');
    return normalizeAddress(value);
  }
}

export const ADDRESS_PIPE = new AddressPipe();
