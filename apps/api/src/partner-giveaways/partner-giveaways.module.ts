import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PartnerAuthGuard } from './partner-auth.guard';
import { PartnerFreeTicketsController } from './partner-free-tickets.controller';
import { PartnerGiveawaysService } from './partner-giveaways.service';

/**
 * The partner free ticket API under /api/v1/giveaways/partner-free-tickets. Always mounted (so it is
 * documented and answers a clear 503 when no chain is configured). Errors: partnerGiveawaysExceptionFilter.
 */
@Module({
  imports: [AuthModule],
  controllers: [PartnerFreeTicketsController],
  providers: [PartnerGiveawaysService, PartnerAuthGuard],
})
export class PartnerGiveawaysModule {}
