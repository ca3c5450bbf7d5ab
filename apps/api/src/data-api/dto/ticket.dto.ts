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

/** The fields of a ticket before its draw outcome, in the spec's order (its Ticket table). */
abstract class TicketHeadDto {
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
}

/**
 * The fields after the draw outcome, on `Head` and its outcome: a class of its own per resource, so that
 * the documented schemas list the fields in the order the responses carry them.
 */
// TypeScript takes a class as a mixin's base only through a constructor type of `any[]` arguments
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TicketClass = abstract new (...args: any[]) => TicketHeadDto;

function withTicketTail<Head extends TicketClass>(head: Head) {
  abstract class TicketTailDto extends head {
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
  return TicketTailDto;
}

abstract class TicketOutcomeDto extends TicketHeadDto {
  @ApiInteger({ maximum: 5, nullable: true, description: 'Null until the round is drawn' })
  matched_normals!: number | null;

  @ApiBoolean({ nullable: true, description: 'Null until the round is drawn' })
  bonusball_match!: boolean | null;

  @ApiAmount({ nullable: true, description: "Null until the round is drawn; net of the round's referral share" })
  winnings_amount!: AmountDto | null;
}

/** A winning ticket: `winnings_amount` renamed `amount`, and the draw outcome is never null. */
abstract class WinOutcomeDto extends TicketHeadDto {
  @ApiInteger({ maximum: 5 })
  matched_normals!: number;

  @ApiBoolean()
  bonusball_match!: boolean;

  @ApiAmount({ description: "Winnings, net of the round's referral share" })
  amount!: AmountDto;
}

export class TicketDto extends withTicketTail(TicketOutcomeDto) {}

export class WinDto extends withTicketTail(WinOutcomeDto) {}
