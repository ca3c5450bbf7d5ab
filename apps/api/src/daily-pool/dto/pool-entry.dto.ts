import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../data-api/dto/api-properties';
import { ApiLowercaseAddress, ApiPoolTimestamp } from './pool-properties';

/** What an entry and a winner share: the entry's id and its entrant. */
abstract class PoolEntrantDto {
  @ApiInteger({ description: 'Entry id: a global sequence over all pool entries' })
  id!: number;

  @ApiLowercaseAddress('The entrant')
  address!: string;
}

/** An entry of the pool. */
export class PoolEntryDto extends PoolEntrantDto {
  @ApiPoolTimestamp('Time of the block that recorded the entry')
  timestamp!: string;
}

/** A round's winner: the winning entry, timed by the block that selected it (not the entry's). */
export class PoolWinnerDto extends PoolEntrantDto {
  @ApiPoolTimestamp('Time of the block that selected the winner')
  timestamp!: string;
}

export class PoolWalletEntryDto extends PoolEntryDto {
  @ApiInteger({ description: 'The jackpot round (drawing) the entry belongs to' })
  jackpotRoundId!: number;
}

export class PoolWalletEntriesDto {
  @ApiProperty({
    type: () => [PoolWalletEntryDto],
    description: "The wallet's entries across all rounds, in entry order",
  })
  entries!: PoolWalletEntryDto[];
}
