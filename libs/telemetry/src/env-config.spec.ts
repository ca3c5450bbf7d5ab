import { z } from 'zod';
import { ConfigError, loadConfig } from './env-config';

describe('loadConfig', () => {
  const schema = z.object({ PORT: z.coerce.number().int().positive().default(3000), RPC_URL: z.string().url() });

  it('returns typed values with defaults', () => {
    expect(loadConfig('x', schema, { RPC_URL: 'http://127.0.0.1:8545' })).toEqual({
      PORT: 3000,
      RPC_URL: 'http://127.0.0.1:8545',
    });
  });

  it('names every bad variable in one error', () => {
    try {
      loadConfig('indexer', schema, { PORT: '-1' });
      throw new Error('expected a ConfigError');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems).toHaveLength(2);
      expect((e as Error).message).toMatch(/indexer: invalid configuration[\s\S]*PORT[\s\S]*RPC_URL/);
    }
  });

  it('counts an empty variable as unset: its default, or missing, never a coerced 0', () => {
    const withCount = schema.extend({ START_BLOCK: z.coerce.number().int().nonnegative() });
    expect(() => loadConfig('indexer', withCount, { PORT: '', RPC_URL: 'http://x', START_BLOCK: '' })).toThrow(
      /START_BLOCK/,
    );
    expect(loadConfig('indexer', withCount, { PORT: '', RPC_URL: 'http://x', START_BLOCK: '7' })).toEqual({
      PORT: 3000,
      RPC_URL: 'http://x',
      START_BLOCK: 7,
    });
  });
});
