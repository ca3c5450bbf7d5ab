import { ApiProperty } from '@nestjs/swagger';

/** Amount: human value = amount / 10^decimals. */
export class AmountDto {
  @ApiProperty({
    type: 'string',
    pattern: '^\\d+$',
    description: 'Integer in the smallest token unit',
    example: '2500000',
  })
  amount!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, example: 6 })
  decimals!: number;
}
