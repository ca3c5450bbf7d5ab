import { redisForSuite } from '../src';

describe('redisForSuite', () => {
  it('round-trips values under its own prefix and cleanup deletes only its keys', async () => {
    const mine = redisForSuite('harness');
    const other = redisForSuite('harness');
    expect(mine.prefix).not.toBe(other.prefix);
    const [a, b] = await Promise.all([mine.connect(), other.connect()]);
    try {
      await a.set('greeting', 'hello');
      await a.hset('hash', { field: 'value' });
      await b.set('greeting', 'untouched');
      expect(await a.get('greeting')).toBe('hello');
      expect(await a.hgetall('hash')).toEqual({ field: 'value' });

      await mine.cleanup();
      expect(await a.exists('greeting', 'hash')).toBe(0);
      expect(await b.get('greeting')).toBe('untouched');
    } finally {
      await other.cleanup();
      a.disconnect();
      b.disconnect();
    }
  });
});
