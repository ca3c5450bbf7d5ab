import { Module } from '@nestjs/common';
import { DailyPoolController } from './daily-pool.controller';
import { DailyPoolService } from './daily-pool.service';
import { PoolAccessGuard } from './pool-access.guard';

/** The free daily pool under /api/v1/daily-ticket-pool. Its error format: DailyPoolExceptionFilter. */
@Module({ controllers: [DailyPoolController], providers: [DailyPoolService, PoolAccessGuard] })
export class DailyPoolModule {}
