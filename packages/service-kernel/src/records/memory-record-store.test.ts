import { describe, it } from 'vitest';
import { createMemoryRecordStores } from './memory-record-store.js';
import { RECORD_STORE_CHECKS } from './record-store-checks.js';

describe('the memory record store', () => {
  for (const check of RECORD_STORE_CHECKS)
    it(check.name, () => {
      const stores = createMemoryRecordStores();
      return check.run(stores.scope('default'), stores);
    });
});
