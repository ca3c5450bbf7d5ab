import { Injectable, type PipeTransform } from '@nestjs/common';
import type { Hex } from '@lottery/domain';
import { zeroAddress } from 'viem';
import { PlainApiError } from '../http/plain-api-error';
import { INVALID_WALLET_ADDRESS, WalletAddressPipe } from '../http/wallet-address.pipe';

/**
 * A partner's `{walletAddress}`: a wallet address that can receive a ticket. The zero address is
 * well-formed but the ticket buyer reverts on it (`InvalidRecipient()`), so it is refused as invalid
 * on both operations: an eligibility check must not promise a ticket the purchase cannot buy.
 */
@Injectable()
export class RecipientAddressPipe implements PipeTransform<string, Hex> {
  private readonly wallets = new WalletAddressPipe();

  transform(value: string): Hex {
    const wallet = this.wallets.transform(value);
    if (wallet === zeroAddress) throw new PlainApiError(400, INVALID_WALLET_ADDRESS);
    return wallet;
  }
}
