import { applyDecorators } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { ApiExtension } from '@nestjs/swagger';
import { DEPRECATION_HEADERS_CONFIG, deprecationHeaders } from './deprecation-metadata';

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
const MIN_NOTICE_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * Marks an endpoint (or every endpoint of a controller) deprecated: its responses carry `Deprecation` and
 * `Sunset` headers, refusals included (they go into the route's Fastify config, which
 * `installDeprecationHeaders` reads as the request arrives), and the OpenAPI operation is flagged. Dates
 * are checked when the class loads, so a notice shorter than the policy fails the build's tests rather
 * than reaching clients. Put it above any `@RouteConfig` of the same handler, which would replace it.
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
  const headers = deprecationHeaders({ sinceMs, sunsetMs, link: options.link ?? null });
  const onHandlers = (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    for (const handler of descriptor ? [descriptor.value] : methodsOf(target)) {
      const config: object = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {};
      Reflect.defineMetadata(
        FASTIFY_ROUTE_CONFIG_METADATA,
        { ...config, [DEPRECATION_HEADERS_CONFIG]: headers },
        handler,
      );
    }
  };
  return applyDecorators(
    ApiExtension(SUNSET_EXTENSION, new Date(sunsetMs).toISOString()),
    onHandlers as MethodDecorator & ClassDecorator,
  );
}

/** A controller class's own methods (its route handlers among them). */
function methodsOf(controller: object): unknown[] {
  const prototype = (controller as { prototype: object }).prototype;
  return Object.getOwnPropertyNames(prototype)
    .filter((name) => name !== 'constructor')
    .map((name) => Object.getOwnPropertyDescriptor(prototype, name)?.value)
    .filter((member) => typeof member === 'function');
}
