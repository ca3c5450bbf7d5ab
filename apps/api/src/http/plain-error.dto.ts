import { ApiProperty } from '@nestjs/swagger';

/** The error body of the daily pool and partner APIs (PlainApiError). */
export class PlainErrorDto {
  @ApiProperty({ type: 'string', example: 'Invalid wallet address' })
  error!: string;
}
