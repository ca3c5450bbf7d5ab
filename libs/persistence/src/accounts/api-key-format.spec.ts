import { apiKeyHint, generateApiKey, hashApiKey, parseApiKey } from './api-key-format';

describe('API key format', () => {
  it('generates <prefix>_<environment>_ plus 22 base62 characters', () => {
    const key = generateApiKey('lt', 'live');
    expect(key).toMatch(/^lt_live_[0-9A-Za-z]{22}$/);
    expect(parseApiKey(key)).toEqual({ prefix: 'lt', environment: 'live', secret: key.slice(8) });
  });

  it('never repeats a key (131 bits of entropy)', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey('lt', 'test')));
    expect(keys.size).toBe(2000);
  });

  it('refuses prefixes and environments that would make keys ambiguous', () => {
    expect(() => generateApiKey('l_t', 'live')).toThrow(RangeError);
    expect(() => generateApiKey('lt', 'Live')).toThrow(RangeError);
  });

  it('parses only well-formed keys', () => {
    expect(parseApiKey('lt_live_' + 'a'.repeat(21))).toBeNull();
    expect(parseApiKey('lt_live_' + 'a'.repeat(23))).toBeNull();
    expect(parseApiKey('lt_live_' + 'a'.repeat(21) + '-')).toBeNull();
    expect(parseApiKey('LT_live_' + 'a'.repeat(22))).toBeNull();
    expect(parseApiKey('lt_test_' + 'a'.repeat(22))?.environment).toBe('test');
  });

  it('hashes with SHA-256 hex and hints with the last four secret characters only', () => {
    const key = 'lt_live_' + 'A'.repeat(18) + 'wxyz';
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toBe(hashApiKey(key.replace('wxyz', 'wxy0')));
    expect(apiKeyHint(key)).toBe('lt_live_…wxyz');
  });
});
