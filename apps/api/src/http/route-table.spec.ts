import { RouteTable } from './route-table';

describe('RouteTable', () => {
  const table = new RouteTable();
  table.record('GET', '/v1/rounds');
  table.record('HEAD', '/v1/rounds');
  table.record(['GET', 'HEAD'], '/v1/rounds/:roundId');
  table.record('GET', '/v1/rounds/active');
  table.record(['GET', 'POST'], '/v1/*');

  it('lists the methods of every pattern matching the path', () => {
    expect(table.allowedMethods('/v1/rounds')).toEqual(['GET', 'HEAD']);
    expect(table.allowedMethods('/v1/rounds/active')).toEqual(['GET', 'HEAD']);
    expect(table.allowedMethods('/v1/rounds/x.y')).toEqual(['GET', 'HEAD']);
  });

  it('knows no path that only a catch-all route matches', () => {
    expect(table.allowedMethods('/v1/nothing')).toEqual([]);
    expect(table.allowedMethods('/v1/rounds/1/2/3')).toEqual([]);
    expect(table.allowedMethods('/v1/rounds/')).toEqual([]);
  });
});
