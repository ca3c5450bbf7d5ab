import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DailyPoolController } from './daily-pool.controller';
import { DailyPoolService } from './daily-pool.service';
import { PoolAccessGuard } from './pool-access.guard';
import { PoolController } from './pool-controller.decorator';
import { unmatchedRouteController } from '../http/unmatched-route.controller';

/** The free daily pool under /api/v1/daily-ticket-pool. Its error format: dailyPoolExceptionFilter (daily-pool-exception.filter.ts). */
@Module({
  imports: [AuthModule],
  controllers: [DailyPoolController, unmatchedRouteController(PoolController())],
  providers: [DailyPoolService, PoolAccessGuard],
})
export class DailyPoolModule {}
