import { nextSchemaName, readSchemaName, readSchemaSettingProblem, retiredSchemaName } from './schema-name';

describe('read-model schema names', () => {
  it('default to lottery and derive the replay generations from the live name', () => {
    expect(readSchemaName()).toBe('lottery');
    expect(nextSchemaName('lottery')).toBe('lottery_next');
    expect(retiredSchemaName('tenant_a')).toBe('tenant_a_retired');
  });

  it.each(['Lottery', 'lot-tery', '1lottery', 'a'.repeat(60), 'x"; DROP SCHEMA public; --'])('reject %s', (name) => {
    expect(() => readSchemaName(name)).toThrow(RangeError);
  });

  it('take as READ_SCHEMA only names whose replay generations are names too, and not a generation', () => {
    const longest = 'l'.repeat(43);
    expect(readSchemaSettingProblem(longest)).toBeNull();
    expect(retiredSchemaName(longest)).toBe(`${longest}_retired`);
    expect(readSchemaSettingProblem(`${longest}x`)).toMatch(/use 1 to 43 lowercase letters, digits or _/);
    expect(readSchemaSettingProblem('Lottery')).toMatch(/not a schema name/);
    expect(readSchemaSettingProblem('tenant_retired')).toMatch(/cannot end in _next or _retired/);
  });
});
