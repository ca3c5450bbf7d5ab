import { readFileSync } from 'node:fs';
import { COMMITTED_OPENAPI, generateOpenApiJson } from '../src/openapi/write-openapi';
import { OpenApiValidator } from './support/openapi-validator';

type Json = Record<string, unknown>;

describe('OpenAPI document', () => {
  let generated: string;
  let document: Json & { paths: Record<string, { get: Json }>; components: { schemas: Record<string, Json> } };

  beforeAll(async () => {
    generated = await generateOpenApiJson();
    document = JSON.parse(generated);
  });

  it('matches the committed apps/api/openapi/v1.json (run `npx nx run api:openapi` after API changes)', () => {
    // Compared as JSON, so formatting the committed file (prettier) is not drift.
    expect(JSON.parse(readFileSync(COMMITTED_OPENAPI, 'utf8'))).toEqual(document);
  });

  it("lists a ticket's and a win's fields in the spec's order, which the responses keep (record-formatters)", () => {
    const fields = (schema: string) => Object.keys(document.components.schemas[schema]['properties'] as Json);
    const ticket = ['id', 'wallet', 'buyer', 'round_id', 'user_ticket_id', 'normals', 'bonusball'];
    const tail = ['claimed', 'claimed_tx_hash', 'tx_hash', 'block_number', 'created_at'];
    expect(fields('TicketDto')).toEqual([...ticket, 'matched_normals', 'bonusball_match', 'winnings_amount', ...tail]);
    expect(fields('WinDto')).toEqual([...ticket, 'matched_normals', 'bonusball_match', 'amount', ...tail]);
  });

  it('describes Data API 1.6.0 in OpenAPI 3 with optional bearer authentication', () => {
    expect(document['openapi']).toMatch(/^3\./);
    expect(document['info']).toMatchObject({ version: '1.6.0' });
    expect(document['security']).toEqual([{}, { bearer: [] }]);
    expect(document['components']).toMatchObject({ securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } });
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/v1/rounds',
        '/v1/rounds/active',
        '/v1/rounds/{roundId}',
        '/v1/rounds/{roundId}/tickets',
        '/v1/rounds/{roundId}/wins',
        '/v1/wallets/{address}/stats',
        '/v1/wallets/{address}/tickets',
        '/v1/wallets/{address}/tickets/rounds/{roundId}',
        '/v1/wallets/{address}/wins',
        '/v1/wallets/{address}/wins/rounds/{roundId}',
      ].sort(),
    );
  });

  it('closes every object schema and marks exactly the nullable fields', () => {
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect([name, schema['additionalProperties']]).toEqual([name, false]);
      expect([name, schema['required']]).toEqual([name, Object.keys(schema['properties'] as Json)]);
    }
    const nullable = (schema: string) =>
      Object.entries(document.components.schemas[schema]['properties'] as Record<string, Json>)
        .filter(([, p]) => p['nullable'] === true)
        .map(([field]) => field)
        .sort();
    expect(nullable('RoundDto')).toEqual(
      ['ended_at', 'prize_tiers', 'settled_at', 'started_at', 'top_prize_amount', 'winning_numbers'].sort(),
    );
    expect(nullable('TicketDto')).toEqual(['bonusball_match', 'claimed_tx_hash', 'matched_normals', 'winnings_amount']);
    expect(nullable('WinDto')).toEqual(['claimed_tx_hash']);
    expect(nullable('WalletStatsDto')).toEqual(['first_seen_at', 'last_seen_at']);
    expect(nullable('TicketListDto')).toEqual(['next_cursor']);
  });

  it('gives the scalar types their patterns', () => {
    const property = (schema: string, field: string) =>
      (document.components.schemas[schema]['properties'] as Record<string, Json>)[field];
    expect(property('RoundDto', 'id')['pattern']).toBe('^\\d+$');
    expect(property('TicketDto', 'wallet')['pattern']).toBe('^0x[a-fA-F0-9]{40}$');
    expect(property('TicketDto', 'tx_hash')['pattern']).toBe('^0x[a-fA-F0-9]{64}$');
    expect(property('TicketDto', 'created_at')['pattern']).toBe(
      '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
    );
    expect(property('RoundListDto', 'next_cursor')['pattern']).toBe('^[A-Za-z0-9_-]+$');
  });

  it('documents the statuses the spec lists for each operation', () => {
    const statuses = (path: string) => Object.keys(document.paths[path].get['responses'] as Json);
    for (const path of Object.keys(document.paths)) {
      expect([path, ...statuses(path)]).toEqual(expect.arrayContaining([path, '200', '401', '403', '405', '429']));
    }
    for (const path of ['/v1/rounds', '/v1/rounds/{roundId}', '/v1/rounds/{roundId}/tickets']) {
      expect(statuses(path)).toContain('400');
    }
    expect(statuses('/v1/rounds/{roundId}')).toContain('404');
    expect(statuses('/v1/rounds/{roundId}/tickets')).toContain('404');
    expect(statuses('/v1/rounds/active')).toContain('503');
    expect(statuses('/v1/rounds/active')).not.toContain('400');
  });

  it('is what the validator of the e2e tests enforces', () => {
    const validator = new OpenApiValidator(document);
    const response = (statusCode: number, body: unknown, headers: Json = { 'x-request-id': 'r' }) => ({
      method: 'GET',
      url: '/v1/rounds/7',
      statusCode,
      headers,
      body: JSON.stringify(body),
    });
    const error = { error: { code: 'not_found', message: 'm', request_id: 'r' } };
    expect(() => validator.check(response(404, error))).not.toThrow();
    expect(() => validator.check(response(404, { ...error, extra: 1 }))).toThrow('does not match');
    expect(() => validator.check(response(404, error, {}))).toThrow('X-Request-Id missing');
    expect(() => validator.check(response(418, error))).toThrow('not documented');
    expect(() => validator.check(response(200, { id: '7' }))).toThrow('does not match');
  });
});
