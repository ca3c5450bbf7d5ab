import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { ReadModelQueries } from '@lottery/persistence';
import { API_KEY_LOOKUP, type ApiKeyLookup } from './auth/api-key-lookup';
import { API_CONFIG, type ApiConfig } from './config/api-config';
import { DailyPoolModule } from './daily-pool/daily-pool.module';
import { DataApiModule } from './data-api/data-api.module';
import { READ_MODEL_QUERIES } from './data-api/read-models.token';
import { HealthModule } from './health/health.module';
import { READINESS_CHECKS, type ReadinessCheck } from './health/readiness-check';
import { RouteTable } from './http/route-table';
import { APP_LOGGER, type AppLogger } from './logger';
import { HttpMetrics } from './metrics/http-metrics';
import { MetricsModule } from './metrics/metrics.module';
import { PartnerGiveawaysModule } from './partner-giveaways/partner-giveaways.module';
import { PARTNER_GIVEAWAYS, type PartnerGiveaways } from './partner-giveaways/partner-giveaways.token';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit/rate-limit-store';

/**
 * Everything the app needs from outside, built before Nest starts (by main.ts, or by a test with
 * in-memory stand-ins), so modules only wire and tests swap whole adapters without overriding providers.
 */
export interface ApiDependencies {
  config: ApiConfig;
  logger: AppLogger;
  readModels: ReadModelQueries;
  apiKeys: ApiKeyLookup;
  rateLimitStore: RateLimitStore;
  readinessChecks: ReadinessCheck[];
  /** The partner giveaway's ledger and purchase queue; absent or null = not configured (503). */
  giveaways?: PartnerGiveaways | null;
}

/** Built by the app factory because Fastify hooks must see them before any route is registered. */
export interface HttpInfrastructure {
  routes: RouteTable;
  metrics: HttpMetrics;
}

@Global()
@Module({})
class CoreModule {
  static register(deps: ApiDependencies, http: HttpInfrastructure): DynamicModule {
    const providers = [
      { provide: API_CONFIG, useValue: deps.config },
      { provide: APP_LOGGER, useValue: deps.logger },
      { provide: READ_MODEL_QUERIES, useValue: deps.readModels },
      { provide: API_KEY_LOOKUP, useValue: deps.apiKeys },
      { provide: RATE_LIMIT_STORE, useValue: deps.rateLimitStore },
      { provide: READINESS_CHECKS, useValue: deps.readinessChecks },
      { provide: PARTNER_GIVEAWAYS, useValue: deps.giveaways ?? null },
      { provide: RouteTable, useValue: http.routes },
      { provide: HttpMetrics, useValue: http.metrics },
    ];
    return { module: CoreModule, providers, exports: providers.map((p) => p.provide) };
  }
}

/** One module per API group, plus health and metrics. */
@Module({})
export class AppModule {
  static register(deps: ApiDependencies, http: HttpInfrastructure): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.register(deps, http),
        DataApiModule,
        DailyPoolModule,
        PartnerGiveawaysModule,
        HealthModule,
        MetricsModule,
      ],
    };
  }
}
