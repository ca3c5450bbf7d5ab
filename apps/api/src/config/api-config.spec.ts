import { ConfigError } from '@lottery/telemetry';
import { loadApiConfig } from './api-config';

const DATABASE_URL = 'postgres://u:p@localhost:5432/lottery';

describe('loadApiConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadApiConfig({ DATABASE_URL });
    expect(config).toMatchObject({
      port: 3000,
      readSchema: 'lottery',
      redisUrl: null,
      keyPrefix: 'lt',
      environment: 'live',
      trustProxy: false,
      rateLimits: { anonymous: { perMinute: 10, perDay: 500 }, authenticated: { perMinute: 60, perDay: 10_000 } },
    });
  });

  it('parses every TRUST_PROXY form', () => {
    const trust = (TRUST_PROXY: string) => loadApiConfig({ DATABASE_URL, TRUST_PROXY }).trustProxy;
    expect(trust('true')).toBe(true);
    expect(trust('false')).toBe(false);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('reports every invalid variable by name at once', () => {
    let error: unknown;
    try {
      loadApiConfig({ PORT: 'eighty', REDIS_URL: 'http://x', KEY_PREFIX: 'L_T', TRUST_PROXY: 'sometimes' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as ConfigError).message;
    for (const name of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'KEY_PREFIX', 'TRUST_PROXY']) expect(text).toContain(name);
  });

  it("refuses the partner keys' word as the environment", () => {
    expect(() => loadApiConfig({ DATABASE_URL, API_ENVIRONMENT: 'partner' })).toThrow(/API_ENVIRONMENT/);
  });

  it('treats empty variables as unset', () => {
    expect(loadApiConfig({ DATABASE_URL, REDIS_URL: '', API_ENVIRONMENT: '' })).toMatchObject({
      redisUrl: null,
      environment: 'live',
    });
  });

  it('reads the pipeline readiness URLs and refuses anything else', () => {
    expect(loadApiConfig({ DATABASE_URL }).pipelineReadyUrls).toEqual([]);
    expect(
      loadApiConfig({
        DATABASE_URL,
        PIPELINE_READY_URLS: 'http://127.0.0.1:9464/health/ready, http://p:1/health/ready',
      }).pipelineReadyUrls,
    ).toEqual(['http://127.0.0.1:9464/health/ready', 'http://p:1/health/ready']);
    expect(() => loadApiConfig({ DATABASE_URL, PIPELINE_READY_URLS: 'indexer:9464' })).toThrow(/PIPELINE_READY_URLS/);
  });
});
