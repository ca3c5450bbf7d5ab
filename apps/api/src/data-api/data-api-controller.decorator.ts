import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

/**
 * A controller of the Data API under `/v1`. Guard order matters: the rate-limit guard charges every
 * request and writes its headers first, then the API-key guard may refuse the credentials.
 */
export function DataApiController(path: string, tag?: string): ClassDecorator {
  return applyDecorators(
    Controller(path === '' ? 'v1' : `v1/${path}`),
    ...(tag ? [ApiTags(tag)] : []),
    UseGuards(RateLimitGuard, ApiKeyGuard),
  );
}
