import type { ApiKeyRecord } from '@lottery/persistence';
import type { ApiKeyLookup } from '../../src/auth/api-key-lookup';

/** Keys by plain text, for tests that exercise the API's key handling without the accounts database. */
export class StubApiKeys implements ApiKeyLookup {
  private readonly keys = new Map<string, ApiKeyRecord>();

  add(key: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
    const record: ApiKeyRecord = {
      id: `00000000-0000-4000-8000-${String(this.keys.size + 1).padStart(12, '0')}`,
      name: 'test key',
      environment: 'live',
      keyHint: 'lt_live_…',
      perMinute: null,
      perDay: null,
      createdAt: new Date(),
      revokedAt: null,
      replacedBy: null,
      ...overrides,
    };
    this.keys.set(key, record);
    return record;
  }

  async findByKey(key: string): Promise<ApiKeyRecord | null> {
    return this.keys.get(key) ?? null;
  }
}
