import { withUnreservedEscapesDecoded } from './unreserved-escapes';

describe('withUnreservedEscapesDecoded', () => {
  it('decodes escapes of letters, digits and - . _ ~ in the path, in either hex case', () => {
    expect(withUnreservedEscapesDecoded('/api/v1/daily%2Dticket-pool/round/%31')).toBe(
      '/api/v1/daily-ticket-pool/round/1',
    );
    expect(withUnreservedEscapesDecoded('/v1/%72ounds/%7e%5F%2e%41')).toBe('/v1/rounds/~_.A');
  });

  it('keeps other escapes, broken ones and the query as they are', () => {
    expect(withUnreservedEscapesDecoded('/v1/a%2Fb%20c%25%zz%4')).toBe('/v1/a%2Fb%20c%25%zz%4');
    expect(withUnreservedEscapesDecoded('/v1/%72ounds?cursor=%41&limit=%31')).toBe('/v1/rounds?cursor=%41&limit=%31');
    expect(withUnreservedEscapesDecoded('/v1/rounds?x=%41')).toBe('/v1/rounds?x=%41');
  });
});
