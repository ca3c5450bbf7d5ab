import { Get, Param, Query } from '@nestjs/common';
import { DataApiController } from './data-api-controller.decorator';
import { DataApiOperation } from './data-api-operation.decorator';
import { DataApiService } from './data-api.service';
import { RoundListDto, TicketListDto, WinListDto } from './dto/list.dto';
import { RoundDto } from './dto/round.dto';
import { PAGE_QUERY, type PageRequest } from './params/page-query.pipe';
import { RoundList, type RoundListRequest } from './params/list-request.decorator';
import { RoundIdPipe } from './params/round-id.pipe';

@DataApiController('rounds', 'rounds')
export class RoundsController {
  constructor(private readonly dataApi: DataApiService) {}

  @Get('active')
  @DataApiOperation({
    operationId: 'getActiveRound',
    summary: 'The round open for sales or being drawn',
    ok: RoundDto,
    unavailable: 'also when no active round could be found',
  })
  activeRound() {
    return this.dataApi.activeRound();
  }

  @Get()
  @DataApiOperation({ operationId: 'listRounds', summary: 'Rounds, newest first', ok: RoundListDto, paginated: true })
  rounds(@Query(PAGE_QUERY) page: PageRequest) {
    return this.dataApi.rounds(page);
  }

  @Get(':roundId')
  @DataApiOperation({
    operationId: 'getRound',
    summary: 'One round',
    ok: RoundDto,
    params: ['roundId'],
    cacheable: true,
  })
  round(@Param('roundId', RoundIdPipe) id: bigint) {
    return this.dataApi.round(id);
  }

  @Get(':roundId/tickets')
  @DataApiOperation({
    operationId: 'listRoundTickets',
    summary: 'Tickets of a round, newest first',
    ok: TicketListDto,
    params: ['roundId'],
    paginated: true,
    cacheable: true,
  })
  roundTickets(@RoundList() list: RoundListRequest) {
    return this.dataApi.roundTickets(list.roundId, list.page);
  }

  @Get(':roundId/wins')
  @DataApiOperation({
    operationId: 'listRoundWins',
    summary: 'Winning tickets of a round, by amount descending, then id descending',
    ok: WinListDto,
    params: ['roundId'],
    paginated: true,
    cacheable: true,
  })
  roundWins(@RoundList() list: RoundListRequest) {
    return this.dataApi.roundWins(list.roundId, list.page);
  }
}
