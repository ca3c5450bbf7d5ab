import { ApiProperty } from '@nestjs/swagger';
import { ApiAmount, ApiBoolean, ApiInteger, ApiNumbers, ApiRoundId, ApiTimestamp } from './api-properties';
import { AmountDto } from './amount.dto';

class BallPoolDto {
  @ApiInteger({ minimum: 1, description: 'Normal balls range over 1..normals_max' })
  normals_max!: number;

  @ApiInteger({ minimum: 1, description: 'The bonusball ranges over 1..bonusball_max' })
  bonusball_max!: number;
}

class WinningNumbersDto {
  @ApiNumbers(5, 'The five drawn normal balls')
  normals!: number[];

  @ApiInteger({ minimum: 1 })
  bonusball!: number;
}

export class PrizeTierDto {
  @ApiInteger({ maximum: 11, description: 'normal_matches * 2 + (1 if bonusball_match else 0)' })
  tier_id!: number;

  @ApiInteger({ maximum: 5 })
  normal_matches!: number;

  @ApiBoolean()
  bonusball_match!: boolean;

  @ApiAmount({
    description:
      "Gross per-ticket payout, as the drawing's payout calculator set it (tiers 0 and 2 pay nothing under the deployed configuration)",
  })
  payout!: AmountDto;

  @ApiInteger({ description: 'Tickets that landed in the tier, also for zero-payout tiers' })
  ticket_count!: number;
}

const ROUND_STATUSES = ['active', 'settled'] as const;

export class RoundDto {
  @ApiRoundId()
  id!: string;

  @ApiProperty({
    enum: ROUND_STATUSES,
    description: '`active`: selling tickets or drawing in progress; `settled`: payouts are done',
  })
  status!: (typeof ROUND_STATUSES)[number];

  @ApiAmount()
  prize_pool!: AmountDto;

  @ApiInteger()
  ticket_count!: number;

  @ApiInteger()
  unique_participants!: number;

  @ApiInteger()
  winners_count!: number;

  @ApiAmount({ nullable: true, description: 'Null until the round is drawn with winners' })
  top_prize_amount!: AmountDto | null;

  @ApiInteger()
  top_prize_winners_count!: number;

  @ApiAmount({
    description:
      'Accumulates from "0" as tickets sell (each order\'s ticket value less its referral fees, and LP earnings ' +
      'updates); final at settlement',
  })
  lp_earnings!: AmountDto;

  @ApiTimestamp({ nullable: true, description: "The previous round's settled_at; null for round 1" })
  started_at!: string | null;

  @ApiTimestamp({ nullable: true, description: 'The drawing time' })
  ended_at!: string | null;

  @ApiTimestamp({ nullable: true })
  settled_at!: string | null;

  @ApiProperty({ type: () => BallPoolDto })
  ball_pool!: BallPoolDto;

  @ApiProperty({ type: () => WinningNumbersDto, nullable: true, description: 'Null until the round is drawn' })
  winning_numbers!: WinningNumbersDto | null;

  @ApiProperty({
    type: () => PrizeTierDto,
    isArray: true,
    minItems: 12,
    maxItems: 12,
    nullable: true,
    description: 'Exactly 12 tiers ordered by tier_id; null until per-tier payouts are available',
  })
  prize_tiers!: PrizeTierDto[] | null;
}
