import { Injectable, type PipeTransform } from '@nestjs/common';
import { type Hex, isAddressShape, normalizeAddress } from '@lottery/domain';
import { PlainApiError } from './plain-api-error';

export const INVALID_WALLET_ADDRESS = 'Invalid wallet address';

/**
 * `{walletAddress}` of the daily pool and partner APIs → lowercase Hex (how those APIs store and return
 * addresses). Any letter case is accepted; anything but 0x + 40 hex is 400 "Invalid wallet address".
 */
@Injectable()
export class WalletAddressPipe implements PipeTransform<string, Hex> {
  transform(value: string): Hex {
    if (!isAddressShape(value)) throw new PlainApiError(400, INVALID_WALLET_ADDRESS);
    return normalizeAddress(value);
  }
}
