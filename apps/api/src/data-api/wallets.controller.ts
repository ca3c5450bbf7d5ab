import { Get, Param, Query } from '@nestjs/common';
import type { Hex } from '@lottery/domain';
import { DataApiController } from './data-api-controller.decorator';
import { DataApiOperation } from './data-api-operation.decorator';
import { DataApiService } from './data-api.service';
import { TicketListDto, WinListDto } from './dto/list.dto';
import { WalletStatsDto } from './dto/wallet-stats.dto';
import { ADDRESSES, AddressPipe } from './params/address.pipe';
import { PAGE_QUERY } from './params/page-query.pipe';
import { ROUND_IDS } from './params/round-id.pipe';

/**
 * A list's parameters are checked in the handler, the path's in their order and then the query, because
 * Nest runs parameter pipes last parameter first: a request with several bad parts is told about the
 * first one (`/v1/wallets/bad/tickets/rounds/x?limit=y`: the address).
 */
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
  tickets(@Param('address') address: string, @Query() query: Record<string, unknown>) {
    return this.dataApi.walletTickets(ADDRESSES.transform(address), null, PAGE_QUERY.transform(query));
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
    @Param('address') address: string,
    @Param('roundId') roundId: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.dataApi.walletTickets(
      ADDRESSES.transform(address),
      ROUND_IDS.transform(roundId),
      PAGE_QUERY.transform(query),
    );
  }

  @Get(':address/wins')
  @DataApiOperation({
    operationId: 'listWalletWins',
    summary: 'Winning tickets of the wallet, newest first',
    ok: WinListDto,
    params: ['address'],
    paginated: true,
  })
  wins(@Param('address') address: string, @Query() query: Record<string, unknown>) {
    return this.dataApi.walletWins(ADDRESSES.transform(address), null, PAGE_QUERY.transform(query));
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
    @Param('address') address: string,
    @Param('roundId') roundId: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.dataApi.walletWins(
      ADDRESSES.transform(address),
      ROUND_IDS.transform(roundId),
      PAGE_QUERY.transform(query),
    );
  }
}
