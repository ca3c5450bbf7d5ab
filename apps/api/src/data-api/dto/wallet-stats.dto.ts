import { ApiAddress, ApiAmount, ApiInteger, ApiTimestamp } from './api-properties';
import { AmountDto } from './amount.dto';

export class WalletStatsDto {
  @ApiAddress('The wallet')
  address!: string;

  @ApiInteger({ description: 'Keyed by recipient wallet, not buyer' })
  total_tickets!: number;

  @ApiInteger()
  total_wins!: number;

  @ApiAmount()
  total_winnings!: AmountDto;

  @ApiAmount()
  total_spent!: AmountDto;

  @ApiAmount({ description: 'Lifetime gross: purchase fees + claim bonuses + still-unclaimed pending winnings' })
  total_referral_earnings!: AmountDto;

  @ApiInteger()
  rounds_played!: number;

  @ApiTimestamp({ nullable: true })
  first_seen_at!: string | null;

  @ApiTimestamp({ nullable: true })
  last_seen_at!: string | null;
}
