import {
  ApiAddress,
  ApiAmount,
  ApiBoolean,
  ApiDigits,
  ApiInteger,
  ApiNumbers,
  ApiRoundId,
  ApiTimestamp,
  ApiTxHash,
} from './api-properties';
import { AmountDto } from './amount.dto';

/** The fields tickets and wins share; they differ only in how the draw outcome is represented. */
abstract class TicketBaseDto {
  @ApiDigits()
  id!: string;

  @ApiAddress('Recipient (owner) of the ticket')
  wallet!: string;

  @ApiAddress('Address that submitted the purchase; may differ from wallet')
  buyer!: string;

  @ApiRoundId()
  round_id!: string;

  @ApiDigits()
  user_ticket_id!: string;

  @ApiNumbers(5, 'The five picked normal balls')
  normals!: number[];

  @ApiInteger({ minimum: 1 })
  bonusball!: number;

  @ApiBoolean()
  claimed!: boolean;

  @ApiTxHash({ nullable: true })
  claimed_tx_hash!: string | null;

  @ApiTxHash({ description: 'Purchase transaction' })
  tx_hash!: string;

  @ApiInteger()
  block_number!: number;

  @ApiTimestamp()
  created_at!: string;
}

export class TicketDto extends TicketBaseDto {
  @ApiInteger({ maximum: 5, nullable: true, description: 'Null until the round is drawn' })
  matched_normals!: number | null;

  @ApiBoolean({ nullable: true, description: 'Null until the round is drawn' })
  bonusball_match!: boolean | null;

  @ApiAmount({ nullable: true, description: "Null until the round is drawn; net of the round's referral share" })
  winnings_amount!: AmountDto | null;
}

/** A winning ticket: `winnings_amount` renamed `amount`, and the draw outcome is never null. */
export class WinDto extends TicketBaseDto {
  @ApiInteger({ maximum: 5 })
  matched_normals!: number;

  @ApiBoolean()
  bonusball_match!: boolean;

  @ApiAmount({ description: "Winnings, net of the round's referral share" })
  amount!: AmountDto;
}
