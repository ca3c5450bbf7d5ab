import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitGuard } from './rate-limit.guard';

/** The store itself comes from the app's dependencies (Redis or in-memory, chosen from config). */
@Module({ imports: [AuthModule], providers: [RateLimitGuard], exports: [RateLimitGuard, AuthModule] })
export class RateLimitModule {}
