import { nextSchemaName, readSchemaName, retiredSchemaName } from './schema-name';

describe('read-model schema names', () => {
  it('default to lottery and derive the replay generations from the live name', () => {
    expect(readSchemaName()).toBe('lottery');
    expect(nextSchemaName('lottery')).toBe('lottery_next');
    expect(retiredSchemaName('tenant_a')).toBe('tenant_a_retired');
  });

  it.each(['Lottery', 'lot-tery', '1lottery', 'a'.repeat(60), 'x"; DROP SCHEMA public; --'])('reject %s', (name) => {
    expect(() => readSchemaName(name)).toThrow(RangeError);
  });
});
