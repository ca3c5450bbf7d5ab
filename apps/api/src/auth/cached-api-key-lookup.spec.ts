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

  async findByKey(key: string): Promise<ApiKeyRecord | null> {
    this.lookups++;
    const answer = this.records.get(key) ?? null;
    await this.gate;
    return answer;
  }
}

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

  it('answers a found key from memory until its time is up', async () => {
    const keys = cache(1000);
    expect(await keys.findByKey('k1')).toEqual(record('a'));
    clock = 999;
    expect(await keys.findByKey('k1')).toEqual(record('a'));
    expect(store.lookups).toBe(1);
    clock = 1000;
    await keys.findByKey('k1');
    expect(store.lookups).toBe(2);
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
