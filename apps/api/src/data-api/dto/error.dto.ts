import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES } from '../../http/api-error';

class ErrorBodyDto {
  @ApiProperty({
    type: 'string',
    description: `Machine-readable code; clients discriminate on it and must tolerate new ones. Current codes: ${ERROR_CODES.join(', ')}`,
    example: 'not_found',
  })
  code!: string;

  @ApiProperty({ type: 'string', description: 'Human-readable explanation' })
  message!: string;

  @ApiProperty({ type: 'string', description: 'Identifies the request; equals the X-Request-Id response header' })
  request_id!: string;
}

export class ErrorEnvelopeDto {
  @ApiProperty({ type: () => ErrorBodyDto })
  error!: ErrorBodyDto;
}
