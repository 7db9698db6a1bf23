import type { IdGenerator } from '../ids.js';
import type { ModelLog, ModelSettings } from '../model-context.js';
import type { Caller } from '../pipeline/auth.js';
import type { AuditStore, RecordStore, RecordStores } from '../records/record-store.js';
import { ServiceError } from '../service-error.js';

/** What every part of an organization works with. */
export interface OrgContext {
  /** The organization's own records: projects, API keys, settings, credential providers. */
  readonly records: RecordStore;
  /** Every project's records, by project. */
  readonly stores: RecordStores;
  readonly audit: AuditStore;
  readonly settings: ModelSettings;
  readonly clock: () => Date;
  readonly nextId: IdGenerator;
  readonly log: ModelLog;
}

export const DAY_MS = 86_400_000;

export const forbidden = (message: string) => new ServiceError('forbidden', message);

/** 403 unless `caller` holds a key of the whole organization (not a project's, not minted). */
export function assertOrgWide(caller: Caller, what: string): void {
  if (caller.isMinted === true) throw forbidden(`A key minted for deployed code may not ${what}.`);
  if (caller.project !== undefined) {
    throw forbidden(`A project's key may not ${what}; that takes an organization-wide key.`);
  }
}
