import { isUpstreamFailure } from './upstream-failure';

const withCode = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('isUpstreamFailure', () => {
  it('recognises refused, reset and timed-out connections, also nested in pg and TypeORM errors', () => {
    expect(isUpstreamFailure(withCode('ECONNREFUSED'))).toBe(true);
    expect(isUpstreamFailure(new AggregateError([withCode('ECONNREFUSED')], ''))).toBe(true);
    expect(isUpstreamFailure(Object.assign(new Error('query failed'), { driverError: withCode('57P01') }))).toBe(true);
    expect(isUpstreamFailure(new Error('x', { cause: new Error('Connection terminated unexpectedly') }))).toBe(true);
    expect(isUpstreamFailure(withCode('08006'))).toBe(true);
  });

  it('leaves bugs and query errors alone', () => {
    expect(isUpstreamFailure(new TypeError('undefined is not a function'))).toBe(false);
    expect(isUpstreamFailure(withCode('42P01', 'relation "rounds" does not exist'))).toBe(false);
    expect(isUpstreamFailure('ECONNREFUSED')).toBe(false);
  });
});
