import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../data-api/dto/api-properties';
import { ApiLowercaseAddress, ApiPoolTimestamp } from './pool-properties';

/** An entry of the pool; also the shape of a round's winner (the winning entry). */
export class PoolEntryDto {
  @ApiInteger({ description: 'Entry id: a global sequence over all pool entries' })
  id!: number;

  @ApiLowercaseAddress('The entrant')
  address!: string;

  @ApiPoolTimestamp('Time of the block that recorded the entry')
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
