import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { PATTERNS } from './api-properties';
import { RoundDto } from './round.dto';
import { TicketDto, WinDto } from './ticket.dto';

/** The paginated list envelope; all three fields are always present. */
export interface ListEnvelope<T> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/** One concrete DTO class per item type, because OpenAPI schemas need a name and a fixed item schema. */
function listDtoOf<T>(item: Type<T>, name: string): Type<ListEnvelope<T>> {
  class ListDto implements ListEnvelope<T> {
    @ApiProperty({ type: () => item, isArray: true })
    data!: T[];

    @ApiProperty({
      type: 'string',
      pattern: PATTERNS.cursor,
      minLength: 1,
      nullable: true,
      description: 'Pass as `cursor` to fetch the next page; null at the end',
    })
    next_cursor!: string | null;

    @ApiProperty({ type: 'boolean', description: 'False when this is the last page' })
    has_more!: boolean;
  }
  Object.defineProperty(ListDto, 'name', { value: name });
  return ListDto;
}

export const RoundListDto = listDtoOf(RoundDto, 'RoundListDto');
export const TicketListDto = listDtoOf(TicketDto, 'TicketListDto');
export const WinListDto = listDtoOf(WinDto, 'WinListDto');
