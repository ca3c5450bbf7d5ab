import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { DataApiService } from './data-api.service';
import { RoundsController } from './rounds.controller';
import { unmatchedRouteController } from '../http/unmatched-route.controller';
import { DataApiController } from './data-api-controller.decorator';
import { WalletsController } from './wallets.controller';

/** The read-only Data API under /v1. Its error format lives in DataApiExceptionFilter. */
@Module({
  imports: [RateLimitModule],
  controllers: [RoundsController, WalletsController, unmatchedRouteController(DataApiController(''))],
  providers: [DataApiService],
})
export class DataApiModule {}
