import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { DEPRECATION_METADATA, type DeprecationMetadata } from './deprecation-metadata';
import { DeprecationInterceptor } from './deprecation.interceptor';

export interface DeprecationOptions {
  /** When the deprecation was announced (ISO date); sent as the `Deprecation` header (RFC 9745). */
  since: string;
  /** When the endpoint goes away (ISO date); sent as the `Sunset` header (RFC 8594). */
  sunset: string;
  /** Where clients read about the replacement; sent as `Link: <…>; rel="deprecation"`. */
  link?: string;
}

/** OpenAPI extension carrying the sunset date; the document builder also marks the operation deprecated. */
export const SUNSET_EXTENSION = 'x-sunset';

/** Versioning policy: a sunset is announced at least 90 days before removal. */
export const MIN_NOTICE_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * Marks an endpoint (or a whole controller) deprecated: its responses carry `Deprecation` and `Sunset`
 * headers, and the OpenAPI operation is flagged. Dates are checked when the class loads, so a notice
 * shorter than the policy fails the build's tests rather than reaching clients. The interceptor that
 * writes the headers comes with the decorator: every other route is spared an interceptor on each request.
 */
export function Deprecated(options: DeprecationOptions): MethodDecorator & ClassDecorator {
  const sinceMs = Date.parse(options.since);
  const sunsetMs = Date.parse(options.sunset);
  if (Number.isNaN(sinceMs) || Number.isNaN(sunsetMs)) {
    throw new RangeError(`@Deprecated needs ISO dates, got since=${options.since} sunset=${options.sunset}`);
  }
  if (sunsetMs - sinceMs < MIN_NOTICE_DAYS * DAY_MS) {
    throw new RangeError(`@Deprecated: the sunset must be announced at least ${MIN_NOTICE_DAYS} days ahead`);
  }
  const metadata: DeprecationMetadata = { sinceMs, sunsetMs, link: options.link ?? null };
  return applyDecorators(
    SetMetadata(DEPRECATION_METADATA, metadata),
    ApiExtension(SUNSET_EXTENSION, new Date(sunsetMs).toISOString()),
    UseInterceptors(DeprecationInterceptor),
  );
}
