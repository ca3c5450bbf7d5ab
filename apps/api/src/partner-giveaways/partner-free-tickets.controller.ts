import { Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import type { Hex } from '@lottery/domain';
import type { FastifyRequest } from 'fastify';
import type { PartnerRecord } from '@lottery/persistence';
import { PATTERNS } from '../data-api/dto/api-properties';
import { PlainApiOperation } from '../http/plain-api-operation.decorator';
import { EligibleDto, IneligibleDto, InvalidPartnerDto, PurchaseSucceededDto } from './dto/partner-responses.dto';
import { type AuthenticatedPartner, CurrentPartner, PartnerAuthGuard } from './partner-auth.guard';
import { RecipientAddressPipe } from './recipient-address.pipe';
import { PartnerGiveawaysService } from './partner-giveaways.service';

export const PARTNER_GIVEAWAYS_PREFIX = '/api/v1/giveaways/partner-free-tickets';

const WALLET = { name: 'walletAddress', description: 'Wallet address, any letter case', pattern: PATTERNS.address };
const COMMON = {
  400: '"Invalid wallet address"',
  401: { description: 'Unknown or missing key, or a disabled partner', type: InvalidPartnerDto },
  429: '"Rate limit exceeded": this address sent as many unknown or disabled keys this minute as an anonymous Data API caller may send requests; see Retry-After',
  503: '"Partner free tickets are not enabled on this server" (no chain configured), or "Service unavailable"',
};

@ApiTags('partner-free-tickets')
@ApiExtraModels(EligibleDto, IneligibleDto, PurchaseSucceededDto)
@Controller(PARTNER_GIVEAWAYS_PREFIX.slice(1))
@UseGuards(PartnerAuthGuard)
export class PartnerFreeTicketsController {
  constructor(private readonly giveaways: PartnerGiveawaysService) {}

  @Get(':walletAddress')
  @PlainApiOperation({
    operationId: 'getPartnerFreeTicketEligibility',
    summary: 'Whether the calling partner may give the wallet a free ticket now',
    ok: [EligibleDto, IneligibleDto],
    params: [WALLET],
    errors: { ...COMMON, 500: '"Internal server error"' },
  })
  eligibility(@CurrentPartner() partner: PartnerRecord, @Param('walletAddress', RecipientAddressPipe) wallet: Hex) {
    return this.giveaways.eligibility(partner, wallet);
  }

  @Post(':walletAddress')
  @HttpCode(200)
  @PlainApiOperation({
    operationId: 'purchasePartnerFreeTicket',
    summary: 'Buys one random ticket for the wallet, paid by the operator, if the wallet is eligible',
    description:
      'Reserves one of the partner’s tickets, then waits (up to PARTNER_JOB_TIMEOUT_MS) while the single ' +
      'signer simulates, sends and confirms `buyTickets(1, wallet, [], [], partner id)` on the random ticket buyer.',
    ok: [PurchaseSucceededDto, IneligibleDto],
    params: [WALLET],
    errors: {
      ...COMMON,
      500: '"Transaction simulation failed: <reason>", "Transaction failed: <reason>" (the reservation is released), or "Internal server error"',
      504: '"Timed out waiting for the transaction; the ticket may still be issued"',
    },
  })
  purchase(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('walletAddress', RecipientAddressPipe) wallet: Hex,
    @Req() request: FastifyRequest,
  ) {
    return this.giveaways.purchase(partner, wallet, () => request.raw.socket?.destroyed === true);
  }
}
