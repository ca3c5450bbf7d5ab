import { bearerCredentials } from './bearer-credentials';

describe('bearerCredentials', () => {
  it('reads "Bearer <token>" with any scheme case and one or more spaces (RFC 6750: 1*SP)', () => {
    expect(bearerCredentials('Bearer lt_live_abc')).toEqual({ kind: 'token', token: 'lt_live_abc' });
    expect(bearerCredentials('bearer x')).toEqual({ kind: 'token', token: 'x' });
    expect(bearerCredentials('Bearer   lt_live_abc')).toEqual({ kind: 'token', token: 'lt_live_abc' });
  });

  it('treats a missing header as anonymous and anything else as malformed', () => {
    expect(bearerCredentials(undefined)).toEqual({ kind: 'none' });
    for (const header of [
      '',
      'Bearer',
      'Bearer ',
      'Bearer  ',
      'Bearer\tx',
      'Basic dXNlcjpwYXNz',
      'Bearer a b',
      'Token x',
    ]) {
      expect(bearerCredentials(header)).toEqual({ kind: 'malformed' });
    }
  });
});
