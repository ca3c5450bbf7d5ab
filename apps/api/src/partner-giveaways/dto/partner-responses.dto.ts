import { ApiProperty } from '@nestjs/swagger';
import { PATTERNS } from '../../data-api/dto/api-properties';

export class EligibleDto {
  @ApiProperty({ type: 'boolean', enum: [true] })
  eligible!: true;
}

export class IneligibleDto {
  @ApiProperty({ type: 'boolean', enum: [false] })
  eligible!: false;

  @ApiProperty({ type: 'string', enum: ['Wallet limit reached', 'Free tickets limit reached'] })
  error!: string;
}

/** 401 of the partner API: the spec pairs "invalid API key or partner not found" with `eligible: false`. */
export class InvalidPartnerDto {
  @ApiProperty({ type: 'boolean', enum: [false] })
  eligible!: false;

  @ApiProperty({ type: 'string', enum: ['Invalid API key or partner not found'] })
  error!: string;
}

export class PurchaseSucceededDto {
  @ApiProperty({ type: 'boolean', enum: [true] })
  success!: true;

  @ApiProperty({ type: 'string', pattern: PATTERNS.txHash, description: 'Hash of the mined purchase transaction' })
  receipt!: string;

  @ApiProperty({
    type: 'string',
    enum: ['Free ticket purchased', 'Free ticket purchased by an earlier request for this wallet'],
    description:
      "The second: the receipt of the wallet's purchase that an earlier POST started (after a 504, or at once)",
  })
  message!: string;
}
