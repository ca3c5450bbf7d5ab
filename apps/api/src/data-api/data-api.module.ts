import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { DataApiService } from './data-api.service';
import { RoundsController } from './rounds.controller';
import { UnmatchedRouteController } from './unmatched-route.controller';
import { WalletsController } from './wallets.controller';

/** The read-only Data API under /v1. Its error format lives in DataApiExceptionFilter. */
@Module({
  imports: [RateLimitModule],
  controllers: [RoundsController, WalletsController, UnmatchedRouteController],
  providers: [DataApiService],
})
export class DataApiModule {}
