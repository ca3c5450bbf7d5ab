import { type ApiKeyRecord, ApiKeysService } from '@lottery/persistence';
import type { ApiKeyLookup } from '../auth/api-key-lookup';
import type { BackgroundDataSource } from './background-data-source';

/** Key lookups against the accounts database; 503 while that database is unreachable. */
export class AccountsApiKeyLookup implements ApiKeyLookup {
  constructor(
    private readonly accounts: BackgroundDataSource,
    private readonly keyPrefix: string,
  ) {}

  findByKey(key: string): Promise<ApiKeyRecord | null> {
    return new ApiKeysService(this.accounts.use(), this.keyPrefix).findByKey(key);
  }
}
