import { startTestApp, type TestApp } from './support/test-app';

const SECRET_URL = 'https://rpc.example/v2/SECRETKEY';

// Read models: InMemoryReadModels (support/).
describe('health and metrics', () => {
  let healthy = true;
  let api: TestApp;

  beforeAll(async () => {
    // a URL the API was configured with, which a check's error quotes
    process.env['PIPELINE_TEST_URL'] = SECRET_URL;
    api = await startTestApp({
      readinessChecks: [
        {
          name: 'database',
          check: async () => {
            if (!healthy) throw new Error(`connect ECONNREFUSED (${SECRET_URL})`);
          },
        },
        // Stands for the projector-lag hook: always ready here.
        { name: 'projector_lag', check: async () => undefined },
      ],
    });
  });
  afterAll(async () => {
    delete process.env['PIPELINE_TEST_URL'];
    await api.close();
  });

  it('is live regardless of dependencies, ready only when every check passes', async () => {
    expect((await api.request('/health/live')).json()).toEqual({ status: 'ok' });
    const ready = await api.request('/health/ready');
    expect([ready.statusCode, ready.json()]).toEqual([
      200,
      { status: 'ready', checks: { database: 'ok', projector_lag: 'ok' } },
    ]);
    healthy = false;
    const notReady = await api.request('/health/ready');
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toEqual({
      status: 'not_ready',
      checks: { database: 'connect ECONNREFUSED (https://rpc.example/…)', projector_lag: 'ok' },
    });
    expect((await api.request('/health/live')).statusCode).toBe(200);
    healthy = true;
  });

  it('exposes request counts and latency by route pattern and status', async () => {
    await api.request('/v1/rounds/1');
    await api.request('/v1/rounds/2');
    await api.request('/v1/rounds/abc');
    await api.request({ method: 'POST', url: '/v1/rounds' });
    const metrics = await api.request('/metrics');
    expect(metrics.headers['content-type']).toContain('text/plain');
    const text = metrics.body;
    expect(text).toContain('http_requests_total{method="GET",route="/v1/rounds/:roundId",status="200"} 2');
    expect(text).toContain('http_requests_total{method="GET",route="/v1/rounds/:roundId",status="400"} 1');
    expect(text).toContain('http_requests_total{method="POST",route="/v1/*",status="405"} 1');
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/rounds\/:roundId",status="200"\} \d+/,
    );
  });

  it('serves the OpenAPI document and the interactive reference', async () => {
    const document = await api.request('/v1/openapi.json');
    expect(document.json()).toMatchObject({ info: { version: '1.6.0' } });
    const docs = await api.request('/v1/docs');
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
    const script = await api.request('/v1/docs/swagger-ui-bundle.js');
    expect(script.statusCode).toBe(200);
    // as its README says: a file the reference does not have is a 404 outside the Data API's guards (never
    // counted, its budget told); a method it does not serve reaches the Data API's catch-all (counted)
    const missing = await api.request('/v1/docs/no-such-file.css');
    expect([missing.statusCode, missing.headers['x-ratelimit-tier']]).toEqual([404, 'anonymous']);
    // Swagger UI's folder holds more than the page loads: none of the rest is served (no library's version)
    for (const file of ['/v1/docs/package.json', '/v1/docs/README.md', '/v1/docs/swagger-ui-bundle.js.map']) {
      const other = await api.request(file);
      expect([file, other.statusCode, other.json().error.code]).toEqual([file, 404, 'not_found']);
    }
    const poolDocs = await api.request('/api/v1/docs/package.json');
    expect([poolDocs.statusCode, poolDocs.json()]).toEqual([404, { error: 'Not found' }]);
    for (const file of [
      'swagger-ui.css',
      'swagger-ui-standalone-preset.js',
      'swagger-ui-init.js',
      'favicon-32x32.png',
    ]) {
      expect([file, (await api.request(`/v1/docs/${file}`)).statusCode]).toEqual([file, 200]);
    }
    const posted = await api.request({ method: 'POST', url: '/v1/docs/swagger-ui-bundle.js' });
    expect([posted.statusCode, posted.json().error.code, posted.headers['x-ratelimit-tier']]).toEqual([
      404,
      'not_found',
      'anonymous',
    ]);
  });
});
