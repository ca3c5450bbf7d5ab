import type { AddressInfo } from 'node:net';
import type { ReadModelQueries } from '@lottery/persistence';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions, LightMyRequestResponse as Response } from 'fastify';
import type { ApiKeyLookup } from '../../src/auth/api-key-lookup';
import { loadApiConfig } from '../../src/config/api-config';
import { createApiApp } from '../../src/create-api-app';
import type { ReadinessCheck } from '../../src/health/readiness-check';
import { type AppLogger, createAppLogger } from '../../src/logger';
import type { PartnerGiveaways } from '../../src/partner-giveaways/partner-giveaways.token';
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-rate-limit.store';
import type { RateLimitStore } from '../../src/rate-limit/rate-limit-store';
import type { TierLimits } from '../../src/rate-limit/tier-limits';
import { InMemoryReadModels } from './in-memory-read-models';
import { lotteryDataset } from './lottery-fixtures';
import { OpenApiValidator } from './openapi-validator';

export interface TestAppOptions {
  readModels?: ReadModelQueries;
  apiKeys?: ApiKeyLookup;
  rateLimitStore?: RateLimitStore;
  readinessChecks?: ReadinessCheck[];
  /** The partner giveaway's ledger and queue; unset = not configured (503). */
  giveaways?: PartnerGiveaways;
  /** Environment variables on top of a minimal valid set. */
  env?: Record<string, string>;
  /** Defaults to limits no test reaches, so only the rate-limit tests see 429s. */
  rateLimits?: TierLimits;
  /** Defaults to a silent one (LOG_LEVEL shows it). */
  logger?: AppLogger;
}

export interface TestApp {
  app: NestFastifyApplication;
  /** Injects a request and checks the response against the served OpenAPI document. */
  request(options: InjectOptions | string): Promise<Response>;
  /** Listens on a free loopback port, for tests that speak raw HTTP to a real socket; returns the port. */
  listen(): Promise<number>;
  close(): Promise<void>;
}

/** The Data API's own paths; its documents (/v1/openapi.json, /v1/docs) are not operations. */
function isDescribedByTheDocument(url: string): boolean {
  const path = url.split('?')[0];
  return (path === '/v1' || path.startsWith('/v1/')) && path !== '/v1/openapi.json' && !path.startsWith('/v1/docs');
}

const UNLIMITED = { perMinute: 1_000_000, perDay: 1_000_000 };
const NO_KEYS: ApiKeyLookup = { findByKey: async () => null };

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadApiConfig({ DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused', ...options.env });
  const rateLimitStore = options.rateLimitStore ?? new MemoryRateLimitStore();
  const app = await createApiApp({
    config: { ...config, rateLimits: options.rateLimits ?? { anonymous: UNLIMITED, authenticated: UNLIMITED } },
    logger: options.logger ?? createAppLogger(process.env['LOG_LEVEL'] === undefined ? 'silent' : config.logLevel),
    readModels: options.readModels ?? new InMemoryReadModels(lotteryDataset()),
    apiKeys: options.apiKeys ?? NO_KEYS,
    rateLimitStore,
    readinessChecks: options.readinessChecks ?? [],
    giveaways: options.giveaways,
  });
  const fastify = app.getHttpAdapter().getInstance();
  const document = JSON.parse((await fastify.inject({ url: '/v1/openapi.json' })).body);
  const validator = new OpenApiValidator(document);
  return {
    app,
    async request(request) {
      const opts: InjectOptions = typeof request === 'string' ? { method: 'GET', url: request } : request;
      const response = await fastify.inject(opts);
      // Checked against the target the server received: the client resolves dot segments ("/./", "/../")
      // first, as every URL parser does, so "/v1/wallets/./stats" arrives as "/v1/wallets/stats".
      const received = response.raw.req.url ?? String(opts.url);
      if (isDescribedByTheDocument(received)) {
        validator.check({
          method: (opts.method ?? 'GET').toString().toUpperCase(),
          url: received,
          statusCode: response.statusCode,
          headers: response.headers,
          body: response.body,
        });
      }
      return response;
    },
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      return (app.getHttpServer().address() as AddressInfo).port;
    },
    async close() {
      await app.close();
      await rateLimitStore.close();
    },
  };
}
