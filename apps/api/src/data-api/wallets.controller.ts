import { Get, Param, Query } from '@nestjs/common';
import type { Hex } from '@lottery/domain';
import { DataApiController } from './data-api-controller.decorator';
import { DataApiOperation } from './data-api-operation.decorator';
import { DataApiService } from './data-api.service';
import { TicketListDto, WinListDto } from './dto/list.dto';
import { WalletStatsDto } from './dto/wallet-stats.dto';
import { AddressPipe } from './params/address.pipe';
import { PAGE_QUERY, type PageRequest } from './params/page-query.pipe';
import { RoundIdPipe } from './params/round-id.pipe';

@DataApiController('wallets', 'wallets')
export class WalletsController {
  constructor(private readonly dataApi: DataApiService) {}

  @Get(':address/stats')
  @DataApiOperation({
    operationId: 'getWalletStats',
    summary: 'Lifetime statistics of a wallet (zeros and null timestamps for an unknown wallet)',
    ok: WalletStatsDto,
    params: ['address'],
  })
  stats(@Param('address', AddressPipe) address: Hex) {
    return this.dataApi.walletStats(address);
  }

  @Get(':address/tickets')
  @DataApiOperation({
    operationId: 'listWalletTickets',
    summary: 'Tickets the wallet received, newest first',
    ok: TicketListDto,
    params: ['address'],
    paginated: true,
  })
  tickets(@Param('address', AddressPipe) address: Hex, @Query(PAGE_QUERY) page: PageRequest) {
    return this.dataApi.walletTickets(address, null, page);
  }

  @Get(':address/tickets/rounds/:roundId')
  @DataApiOperation({
    operationId: 'listWalletRoundTickets',
    summary: 'Tickets the wallet received in one round, newest first',
    ok: TicketListDto,
    params: ['address', 'roundId'],
    paginated: true,
  })
  roundTickets(
    @Param('address', AddressPipe) address: Hex,
    @Param('roundId', RoundIdPipe) roundId: bigint,
    @Query(PAGE_QUERY) page: PageRequest,
  ) {
    return this.dataApi.walletTickets(address, roundId, page);
  }

  @Get(':address/wins')
  @DataApiOperation({
    operationId: 'listWalletWins',
    summary: 'Winning tickets of the wallet, newest first',
    ok: WinListDto,
    params: ['address'],
    paginated: true,
  })
  wins(@Param('address', AddressPipe) address: Hex, @Query(PAGE_QUERY) page: PageRequest) {
    return this.dataApi.walletWins(address, null, page);
  }

  @Get(':address/wins/rounds/:roundId')
  @DataApiOperation({
    operationId: 'listWalletRoundWins',
    summary: 'Winning tickets of the wallet in one round, newest first',
    ok: WinListDto,
    params: ['address', 'roundId'],
    paginated: true,
  })
  roundWins(
    @Param('address', AddressPipe) address: Hex,
    @Param('roundId', RoundIdPipe) roundId: bigint,
    @Query(PAGE_QUERY) page: PageRequest,
  ) {
    return this.dataApi.walletWins(address, roundId, page);
  }
}
