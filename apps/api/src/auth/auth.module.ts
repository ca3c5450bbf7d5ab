import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { CallerResolver } from './caller-resolver';
import { RefusedKeyLookups } from './refused-key-lookups';

@Module({
  providers: [CallerResolver, ApiKeyGuard, RefusedKeyLookups],
  exports: [CallerResolver, ApiKeyGuard, RefusedKeyLookups],
})
export class AuthModule {}
