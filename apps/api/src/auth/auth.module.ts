import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { CallerResolver } from './caller-resolver';

@Module({ providers: [CallerResolver, ApiKeyGuard], exports: [CallerResolver, ApiKeyGuard] })
export class AuthModule {}
