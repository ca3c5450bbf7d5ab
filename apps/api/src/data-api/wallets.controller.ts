import { Get, Param } from '@nestjs/common';
import type { Hex } from '@lottery/domain';
import { DataApiController } from './data-api-controller.decorator';
import { DataApiOperation } from './data-api-operation.decorator';
import { DataApiService } from './data-api.service';
import { TicketListDto, WinListDto } from './dto/list.dto';
import { WalletStatsDto } from './dto/wallet-stats.dto';
import { AddressPipe } from './params/address.pipe';
import {
  WalletList,
  type WalletListRequest,
  WalletRoundList,
  type WalletRoundListRequest,
} from './params/list-request.decorator';

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
  tickets(@WalletList() list: WalletListRequest) {
    return this.dataApi.walletTickets(list.address, null, list.page);
  }

  @Get(':address/tickets/rounds/:roundId')
  @DataApiOperation({
    operationId: 'listWalletRoundTickets',
    summary: 'Tickets the wallet received in one round, newest first',
    ok: TicketListDto,
    params: ['address', 'roundId'],
    paginated: true,
  })
  roundTickets(@WalletRoundList() list: WalletRoundListRequest) {
    return this.dataApi.walletTickets(list.address, list.roundId, list.page);
  }

  @Get(':address/wins')
  @DataApiOperation({
    operationId: 'listWalletWins',
    summary: 'Winning tickets of the wallet, newest first',
    ok: WinListDto,
    params: ['address'],
    paginated: true,
  })
  wins(@WalletList() list: WalletListRequest) {
    return this.dataApi.walletWins(list.address, null, list.page);
  }

  @Get(':address/wins/rounds/:roundId')
  @DataApiOperation({
    operationId: 'listWalletRoundWins',
    summary: 'Winning tickets of the wallet in one round, newest first',
    ok: WinListDto,
    params: ['address', 'roundId'],
    paginated: true,
  })
  roundWins(@WalletRoundList() list: WalletRoundListRequest) {
    return this.dataApi.walletWins(list.address, list.roundId, list.page);
  }
}
