import { runInNewContext } from 'node:vm';
import { isDependencyUnavailable, isStatementCancelled } from './dependency-unavailable';

const withCode = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('isDependencyUnavailable', () => {
  it('recognises refused, reset and timed-out connections, also nested in pg and TypeORM errors', () => {
    expect(isDependencyUnavailable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDependencyUnavailable(new AggregateError([withCode('ECONNREFUSED')], ''))).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('query failed'), { driverError: withCode('57P01') }))).toBe(
      true,
    );
    expect(isDependencyUnavailable(new Error('x', { cause: new Error('Connection terminated unexpectedly') }))).toBe(
      true,
    );
    expect(isDependencyUnavailable(withCode('08006'))).toBe(true);
  });

  it('recognises a statement after the server ended the connection, and a database closed to connections', () => {
    expect(isDependencyUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(
      true,
    );
    expect(
      isDependencyUnavailable(withCode('55000', 'database "lottery" is not currently accepting connections')),
    ).toBe(true);
    // the same class's other errors are bugs
    expect(isDependencyUnavailable(withCode('55000', 'cannot execute nextval() on a sequence'))).toBe(false);
  });

  it("recognises an error made in another realm (no instance of this realm's Error)", () => {
    const foreign: unknown = runInNewContext('Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })');
    expect(foreign instanceof Error).toBe(false);
    expect(isDependencyUnavailable(foreign)).toBe(true);
  });

  it('leaves bugs and query errors alone', () => {
    expect(isDependencyUnavailable(new TypeError('undefined is not a function'))).toBe(false);
    expect(isDependencyUnavailable(withCode('42P01', 'relation "rounds" does not exist'))).toBe(false);
    expect(isDependencyUnavailable('ECONNREFUSED')).toBe(false);
  });
});

describe('isStatementCancelled', () => {
  it('recognises a statement Postgres cancelled (57014), nested too, and nothing else', () => {
    const cancelled = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    expect(isStatementCancelled(cancelled)).toBe(true);
    expect(isStatementCancelled(Object.assign(new Error('query failed'), { driverError: cancelled }))).toBe(true);
    // not an outage to a process that must stop rather than run it again (the projector)
    expect(isDependencyUnavailable(cancelled)).toBe(false);
    expect(isStatementCancelled(Object.assign(new Error('x'), { code: '08006' }))).toBe(false);
  });
});
