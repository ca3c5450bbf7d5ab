import { createHash } from 'node:crypto';
import type { ApiKeyRecord } from '@lottery/persistence';
import type { ApiKeyLookup } from './api-key-lookup';

export interface ApiKeyCacheOptions {
  /** How long a found key is reused; 0 turns the cache off. */
  ttlMs: number;
  /** Oldest entries go first beyond this many keys. */
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  record: ApiKeyRecord;
  expiresAt: number;
}

const DEFAULT_MAX_ENTRIES = 10_000;

const hashOf = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * Reuses key lookups so an authenticated request costs no accounts-database round trip. Stale
 * answers would let a revoked key through, so the cache serves only while it hears about changes
 * (`listening`, set by whoever receives them) and forgets everything on each change; a lookup that
 * overlapped a change is not kept. Only found keys are kept: unknown tokens are unbounded and cheap to
 * invent, and must never crowd out real ones. Entries are keyed by the key's hash, so process memory
 * holds no plain key beyond the request that carried it.
 *
 * The TTL only bounds how long a change could go unheard, so an entry past it is not dropped in front
 * of the requests: it answers while one lookup per key refreshes it in the background. Dropped, every
 * request of a busy key arriving during the lookup (after an idle spell, on a new accounts-database
 * connection) would miss and look the key up itself. A refresh that fails drops the entry, so the next
 * request looks the key up itself and meets the failure.
 */
export class CachedApiKeyLookup implements ApiKeyLookup {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly now: () => number;
  private listening = false;
  /** Bumped on every change, so a lookup that started before one does not repopulate the cache. */
  private generation = 0;
  /** Keys (by hash) whose expired entry is being looked up again. */
  private readonly refreshing = new Set<string>();

  constructor(
    private readonly source: ApiKeyLookup,
    private readonly options: ApiKeyCacheOptions,
  ) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.now = options.now ?? Date.now;
  }

  /** Whether changes to keys are heard right now; without them nothing is cached. */
  setListening(listening: boolean): void {
    this.listening = listening;
    // Changes made while not listening went unheard.
    this.invalidate();
  }

  /** Some key changed (revoked, rotated, new limits): forget every lookup. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  answersFromMemory(key: string): boolean {
    return this.listening && this.options.ttlMs > 0 && this.entries.has(hashOf(key));
  }

  async findByKey(key: string): Promise<ApiKeyRecord | null> {
    if (!this.listening || this.options.ttlMs <= 0) return this.source.findByKey(key);
    const hash = hashOf(key);
    const cached = this.entries.get(hash);
    if (!cached) return this.load(hash, key);
    if (cached.expiresAt <= this.now()) this.refresh(hash, key);
    return cached.record;
  }

  private refresh(hash: string, key: string): void {
    if (this.refreshing.has(hash)) return;
    this.refreshing.add(hash);
    this.load(hash, key)
      .catch(() => this.entries.delete(hash))
      .finally(() => this.refreshing.delete(hash));
  }

  private async load(hash: string, key: string): Promise<ApiKeyRecord | null> {
    const generation = this.generation;
    const record = await this.source.findByKey(key);
    if (generation === this.generation && this.listening) {
      if (record) this.keep(hash, record);
      else this.entries.delete(hash);
    }
    return record;
  }

  private keep(hash: string, record: ApiKeyRecord): void {
    this.entries.delete(hash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(hash, { record, expiresAt: this.now() + this.options.ttlMs });
  }
}
