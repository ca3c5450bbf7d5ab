import type { FastifyRequest } from 'fastify';
import type { AppLogger } from '../logger';
import { ApiError } from './api-error';
import { logUnexpected } from './classify-exception';

describe('logUnexpected', () => {
  const logged = (url: string) => {
    const lines: object[] = [];
    const logger = { error: (line: object) => lines.push(line), warn: (line: object) => lines.push(line) };
    logUnexpected(
      logger as unknown as AppLogger,
      { error: new ApiError('internal_error', 'internal error'), cause: new Error('bug') },
      { id: 'req-1', method: 'GET', url } as FastifyRequest,
    );
    return lines;
  };

  it('logs the request line with every apikey query parameter redacted, the rest kept', () => {
    const [line] = logged(
      '/api/v1/daily-ticket-pool/active-round?apikey=lt_live_SECRETSECRETSECRETSECRE&x=1&APIKEY=other',
    );
    expect(line).toMatchObject({
      request_id: 'req-1',
      method: 'GET',
      url: '/api/v1/daily-ticket-pool/active-round?apikey=***&x=1&APIKEY=***',
    });
    expect(JSON.stringify(line)).not.toMatch(/SECRET|other/);
  });

  it('redacts the key whatever the encoding of its parameter name', () => {
    const [line] = logged('/api/v1/giveaways/partner-free-tickets/0x1?api%6Bey=lt_partner_SECRETSECRET');
    expect(JSON.stringify(line)).not.toContain('SECRET');
  });

  it('keeps a URL without a key as it came', () => {
    expect(logged('/v1/rounds/7?limit=2')[0]).toMatchObject({ url: '/v1/rounds/7?limit=2' });
  });
});
