import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger, PATTERNS } from '../../data-api/dto/api-properties';
import { PoolEntryDto, PoolWinnerDto } from './pool-entry.dto';
import { ApiPoolTimestamp } from './pool-properties';

/** The operator's purchase of the round's pool tickets (the latest one, if there were several). */
export class PoolTransactionDto {
  @ApiInteger({ description: 'Sequence of the pool purchase' })
  id!: number;

  @ApiProperty({ type: 'string', pattern: PATTERNS.txHash })
  transactionHash!: string;

  @ApiInteger()
  blockNumber!: number;

  @ApiPoolTimestamp('Time of the block')
  timestamp!: string;
}

export class PoolRoundViewDto {
  @ApiInteger({ description: 'The jackpot round (drawing) id' })
  roundId!: number;

  @ApiProperty({
    type: () => PoolTransactionDto,
    nullable: true,
    description: 'The latest pool transaction of the round; null while the round has none',
  })
  transaction!: PoolTransactionDto | null;

  @ApiProperty({
    type: () => [PoolEntryDto],
    description: 'Entries in entry order (only the wallet’s, when one is given)',
  })
  entries!: PoolEntryDto[];

  @ApiInteger({ description: 'Entries of the whole round, even when `entries` is limited to one wallet' })
  totalEntries!: number;
}

/** A round that is no longer active also names its winner. */
export class PoolRoundWithWinnerDto extends PoolRoundViewDto {
  @ApiProperty({
    type: () => PoolWinnerDto,
    nullable: true,
    description: 'The winning entry; null until the operator has selected it',
  })
  winner!: PoolWinnerDto | null;
}

export class NoActiveRoundDto {
  @ApiProperty({ type: 'string', example: 'No active round' })
  message!: string;
}
