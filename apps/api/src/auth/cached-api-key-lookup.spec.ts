import type { ApiKeyRecord } from '@lottery/persistence';
import type { ApiKeyLookup } from './api-key-lookup';
import { CachedApiKeyLookup } from './cached-api-key-lookup';

const record = (id: string, revokedAt: Date | null = null): ApiKeyRecord => ({
  id,
  name: id,
  environment: 'live',
  keyHint: 'lt_live_…abcd',
  perMinute: null,
  perDay: null,
  createdAt: new Date(0),
  revokedAt,
  replacedBy: null,
});

/** A store whose answers the test changes, counting lookups; `gate` holds a lookup open. */
class CountingStore implements ApiKeyLookup {
  readonly records = new Map<string, ApiKeyRecord>();
  lookups = 0;
  gate: Promise<void> | null = null;
  failure: Error | null = null;

  async findByKey(key: string): Promise<ApiKeyRecord | null> {
    this.lookups++;
    const answer = this.records.get(key) ?? null;
    await this.gate;
    if (this.failure) throw this.failure;
    return answer;
  }
}

/** Lets a background refresh (a few promise turns) finish. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CachedApiKeyLookup', () => {
  let store: CountingStore;
  let clock: number;
  const cache = (ttlMs = 1000, maxEntries?: number) => {
    const c = new CachedApiKeyLookup(store, { ttlMs, maxEntries, now: () => clock });
    c.setListening(true);
    return c;
  };

  beforeEach(() => {
    store = new CountingStore();
    clock = 0;
    store.records.set('k1', record('a'));
    store.records.set('k2', record('b'));
  });

  it('says which keys it answers from memory: found ones, while it hears of changes', async () => {
    const keys = cache(1000);
    await keys.findByKey('k1');
    await keys.findByKey('unknown');
    expect(['k1', 'k2', 'unknown'].map((k) => keys.answersFromMemory(k))).toEqual([true, false, false]);
    keys.setListening(false);
    expect(keys.answersFromMemory('k1')).toBe(false);
  });

  it('answers a found key from memory until its time is up, then refreshes it in the background', async () => {
    const keys = cache(1000);
    expect(await keys.findByKey('k1')).toEqual(record('a'));
    clock = 999;
    expect(await keys.findByKey('k1')).toEqual(record('a'));
    expect(store.lookups).toBe(1);

    store.records.set('k1', record('a', new Date(7)));
    let open!: () => void;
    store.gate = new Promise((resolve) => (open = resolve));
    clock = 1000;
    // past its time the entry still answers, while one lookup refreshes it
    for (let i = 0; i < 3; i++) expect(await keys.findByKey('k1')).toEqual(record('a'));
    expect(store.lookups).toBe(2);
    open();
    await settle();
    expect((await keys.findByKey('k1'))?.revokedAt).toEqual(new Date(7));
    expect(store.lookups).toBe(2);
  });

  it('drops an entry whose refresh failed, so the next request looks the key up itself', async () => {
    const keys = cache(1000);
    await keys.findByKey('k1');
    clock = 1000;
    store.failure = new Error('accounts database unreachable');
    expect(await keys.findByKey('k1')).toEqual(record('a'));
    await settle();
    await expect(keys.findByKey('k1')).rejects.toThrow('unreachable');
    expect(store.lookups).toBe(3);
  });

  it('drops an entry whose key is gone when it is refreshed', async () => {
    const keys = cache(1000);
    await keys.findByKey('k1');
    store.records.delete('k1');
    clock = 1000;
    await keys.findByKey('k1');
    await settle();
    expect(await keys.findByKey('k1')).toBeNull();
    expect(store.lookups).toBe(3);
  });

  it('forgets everything on a change, so a revocation shows on the next request', async () => {
    const keys = cache();
    await keys.findByKey('k1');
    store.records.set('k1', record('a', new Date(5)));
    keys.invalidate();
    expect((await keys.findByKey('k1'))?.revokedAt).toEqual(new Date(5));
  });

  it('does not keep an answer fetched across a change (it may predate it)', async () => {
    const keys = cache();
    let open!: () => void;
    store.gate = new Promise((resolve) => (open = resolve));
    const inFlight = keys.findByKey('k1');
    keys.invalidate();
    open();
    await inFlight;
    store.gate = null;
    await keys.findByKey('k1');
    expect(store.lookups).toBe(2);
  });

  it('caches nothing while changes cannot be heard, and drops what it had when they stop', async () => {
    const keys = cache();
    await keys.findByKey('k1');
    keys.setListening(false);
    await keys.findByKey('k1');
    await keys.findByKey('k1');
    expect(store.lookups).toBe(3);
    keys.setListening(true);
    await keys.findByKey('k1');
    await keys.findByKey('k1');
    expect(store.lookups).toBe(4);
  });

  it('never keeps unknown keys (anyone can invent them)', async () => {
    const keys = cache();
    expect(await keys.findByKey('nope')).toBeNull();
    expect(await keys.findByKey('nope')).toBeNull();
    expect(store.lookups).toBe(2);
  });

  it('keeps at most maxEntries keys, dropping the oldest', async () => {
    const keys = cache(1000, 1);
    await keys.findByKey('k1');
    await keys.findByKey('k2');
    await keys.findByKey('k2');
    expect(store.lookups).toBe(2);
    await keys.findByKey('k1');
    expect(store.lookups).toBe(3);
  });

  it('with a TTL of 0 always asks the store', async () => {
    const keys = cache(0);
    await keys.findByKey('k1');
    await keys.findByKey('k1');
    expect(store.lookups).toBe(2);
  });
});
