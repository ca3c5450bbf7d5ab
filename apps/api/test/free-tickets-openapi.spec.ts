import { readFileSync } from 'node:fs';
import { COMMITTED_FREE_TICKETS_OPENAPI, generateFreeTicketsOpenApiJson } from '../src/openapi/write-openapi';

type Json = Record<string, unknown>;
type Operation = { responses: Json; operationId: string };

describe('OpenAPI document of the daily pool and partner APIs', () => {
  let document: Json & {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Json> };
  };

  beforeAll(async () => {
    document = JSON.parse(await generateFreeTicketsOpenApiJson());
  });

  it('matches the committed apps/api/openapi/api-v1.json (run `npx nx run api:openapi` after API changes)', () => {
    expect(JSON.parse(readFileSync(COMMITTED_FREE_TICKETS_OPENAPI, 'utf8'))).toEqual(document);
  });

  it('describes the six pool reads and the partner GET and POST, keyed by `apikey` header or query', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        'GET /api/v1/daily-ticket-pool/active-round',
        'GET /api/v1/daily-ticket-pool/active-round/{walletAddress}',
        'GET /api/v1/daily-ticket-pool/round',
        'GET /api/v1/daily-ticket-pool/round/{roundId}',
        'GET /api/v1/daily-ticket-pool/round/{roundId}/{walletAddress}',
        'GET /api/v1/daily-ticket-pool/{walletAddress}',
        'GET /api/v1/giveaways/partner-free-tickets/{walletAddress}',
        'POST /api/v1/giveaways/partner-free-tickets/{walletAddress}',
      ].sort(),
    );
    expect(document['security']).toEqual([{ apikeyHeader: [] }, { apikeyQuery: [] }]);
  });

  it('documents 401 and 500 everywhere, 400 with parameters, 404 on round reads', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item)) {
        const statuses = Object.keys(operation.responses);
        expect([path, ...statuses]).toEqual(expect.arrayContaining([path, '200', '401', '500']));
        if (path.includes('{')) expect([path, ...statuses]).toContain('400');
        if (path.includes('/round')) expect([path, ...statuses]).toContain('404');
      }
    }
  });

  it('closes every object schema; only a round’s transaction and winner are nullable', () => {
    const nullable: string[] = [];
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect([name, schema['additionalProperties']]).toEqual([name, false]);
      for (const [field, property] of Object.entries(schema['properties'] as Record<string, Json>)) {
        if (property['nullable'] === true) nullable.push(`${name}.${field}`);
      }
    }
    expect(nullable.sort()).toEqual([
      'PoolRoundViewDto.transaction',
      'PoolRoundWithWinnerDto.transaction',
      'PoolRoundWithWinnerDto.winner',
    ]);
  });
});
