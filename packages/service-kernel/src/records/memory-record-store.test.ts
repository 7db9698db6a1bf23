import { describe, it } from 'vitest';
import { createMemoryRecordStore } from './memory-record-store.js';
import { RECORD_STORE_CHECKS } from './record-store-checks.js';

describe('the memory record store', () => {
  for (const check of RECORD_STORE_CHECKS)
    it(check.name, () => check.run(createMemoryRecordStore()));
});
