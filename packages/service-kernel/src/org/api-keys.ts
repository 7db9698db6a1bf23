import {
  type ApiKey,
  type ApiKeyListQuery,
  type CreateApiKeyInput,
  type CreatedApiKey,
  formatTimestamp,
  MAX_API_KEYS,
  type Page,
  pageOf,
  type RotateApiKeyInput,
} from '@x/types';
import type { Deployer } from '../apps/deployment-keys.js';
import type { Caller } from '../pipeline/auth.js';
import { findByIdOrName } from '../records/named-records.js';
import type { StoredApiKey } from '../records/record-store.js';
import { ServiceError } from '../service-error.js';
import { assertOrgWide, DAY_MS, type OrgContext } from './org-context.js';
import { keyDigest, maskKey, newApiKey } from './org-keys.js';

/**
 * The organization's API keys: made, listed, renamed, rotated and deleted by a key of the whole
 * organization; minted for a deployment's code; and found by the token a call carries. A key's
 * secret is never kept, only its digest.
 */
export class ApiKeys {
  readonly #context: OrgContext;
  /** The default project is in the store (a key may name it before anything else made it). */
  readonly #ready: () => Promise<void>;

  constructor(context: OrgContext, ready: () => Promise<void>) {
    this.#context = context;
    this.#ready = ready;
  }

  get #keys() {
    return this.#context.records.apiKeys;
  }

  #now(): Date {
    return this.#context.clock();
  }

  /** The key a token is, when it works now (not deleted, not expired, nor its deployer's key). */
  working(token: string): Promise<StoredApiKey | undefined> {
    return this.workingByDigest(keyDigest(token));
  }

  /** As `working`, for a token whose digest the caller has already. */
  async workingByDigest(digest: string): Promise<StoredApiKey | undefined> {
    const stored = await this.#keys.byName(digest);
    if (!stored || !this.#works(stored)) return undefined;
    // A minted key works while the key that deployed its code does (or the key it was rotated
    // to, and so on).
    if (stored.parentKey !== undefined && !(await this.#keyWorks(stored.parentKey)))
      return undefined;
    return stored;
  }

  /** Whether the key `id`, or the one it was rotated to (at most 16 rotations on), works now. */
  async #keyWorks(id: string): Promise<boolean> {
    let next: string | undefined = id;
    for (let hops = 0; next !== undefined && hops < 16; hops++) {
      const key = await this.#keys.get(next);
      if (this.#works(key)) return true;
      next = key?.rotatedTo;
    }
    return false;
  }

  /** Whether a key works now: not deleted, not expired. */
  #works(stored: StoredApiKey | undefined): boolean {
    if (!stored || stored.record.deleted_at !== null) return false;
    const expiresAt = stored.record.expires_at;
    return expiresAt === null || Date.parse(expiresAt) > this.#now().getTime();
  }

  async #answer(stored: StoredApiKey): Promise<ApiKey> {
    const project =
      stored.record.project_id === null
        ? undefined
        : await this.#context.records.projects.get(stored.record.project_id);
    return { ...stored.record, project_name: project?.record.name ?? null };
  }

  async #store(
    fields: Omit<ApiKey, 'id' | 'masked_key' | 'created_at' | 'deleted_at' | 'project_name'>,
    minted?: { readonly mintedBy: string; readonly parentKey: string | undefined },
  ): Promise<CreatedApiKey> {
    // Minted keys past their end (a run the server did not see end) go first, for good.
    const all: StoredApiKey[] = [];
    for (const stored of await this.#keys.list()) {
      if (stored.mintedBy !== undefined && !this.#works(stored))
        await this.#keys.delete(stored.record.id);
      else all.push(stored);
    }
    const deleted = all.filter((stored) => stored.record.deleted_at !== null);
    if (all.length - deleted.length >= MAX_API_KEYS) {
      throw new ServiceError('conflict', `This server keeps at most ${MAX_API_KEYS} API keys.`);
    }
    // Deleted keys are kept for the record, but never more than the live ones may be: the
    // oldest go first.
    for (const stored of deleted.slice(0, Math.max(0, all.length + 1 - MAX_API_KEYS))) {
      await this.#keys.delete(stored.record.id);
    }
    const key = newApiKey();
    const digest = keyDigest(key);
    const record: StoredApiKey['record'] = {
      id: this.#context.nextId('key'),
      name: fields.name,
      masked_key: maskKey(key),
      project_id: fields.project_id,
      read_only: fields.read_only,
      created_at: formatTimestamp(this.#now()),
      expires_at: fields.expires_at,
      deleted_at: null,
    };
    const stored: StoredApiKey = {
      record,
      digest,
      ...(minted && { mintedBy: minted.mintedBy }),
      ...(minted?.parentKey !== undefined && { parentKey: minted.parentKey }),
    };
    await this.#keys.put(record.id, stored, { name: digest });
    return { ...(await this.#answer(stored)), key };
  }

  #expiry(days: number | null | undefined): string | null {
    if (days === undefined || days === null) return null;
    return formatTimestamp(new Date(this.#now().getTime() + days * DAY_MS));
  }

  async create(caller: Caller, body: CreateApiKeyInput): Promise<CreatedApiKey> {
    assertOrgWide(caller, 'manage API keys');
    let project: string | null = null;
    if (body.project_id !== undefined && body.project_id !== null) {
      // The default project may not be in the store yet: a key for it is made all the same.
      await this.#ready();
      const found = await findByIdOrName(this.#context.records.projects, body.project_id);
      if (!found) throw new ServiceError('not_found', `No project "${body.project_id}".`);
      project = found.record.id;
    }
    return this.#store({
      name: body.name,
      project_id: project,
      read_only: body.read_only ?? false,
      expires_at: this.#expiry(body.days_to_expire),
    });
  }

  async #key(id: string, includeDeleted = false): Promise<StoredApiKey> {
    const stored = await this.#keys.get(id);
    if (!stored || (stored.record.deleted_at !== null && !includeDeleted)) {
      throw new ServiceError('not_found', `No API key "${id}".`);
    }
    return stored;
  }

  async page(caller: Caller, query: ApiKeyListQuery): Promise<Page<ApiKey>> {
    assertOrgWide(caller, 'list API keys');
    const needle = query.query?.toLowerCase();
    const keys = await Promise.all(
      (await this.#keys.list())
        .filter(({ record }) => {
          const isDeleted = record.deleted_at !== null;
          if (query.status === 'active' && isDeleted) return false;
          if (query.status === 'deleted' && !isDeleted) return false;
          return query.name === undefined || record.name === query.name;
        })
        .map((stored) => this.#answer(stored)),
    );
    const matching = keys
      .filter(
        (key) =>
          needle === undefined ||
          [key.id, key.name, key.masked_key, key.project_id ?? '', key.project_name ?? ''].some(
            (field) => field.toLowerCase().includes(needle),
          ),
      )
      .reverse();
    return pageOf(matching, query.offset, query.limit);
  }

  async get(caller: Caller, id: string, includeDeleted: boolean): Promise<ApiKey> {
    assertOrgWide(caller, 'read API keys');
    return this.#answer(await this.#key(id, includeDeleted));
  }

  async update(caller: Caller, id: string, name: string): Promise<ApiKey> {
    assertOrgWide(caller, 'manage API keys');
    const stored = await this.#key(id);
    const next = { ...stored, record: { ...stored.record, name } };
    await this.#keys.put(id, next);
    return this.#answer(next);
  }

  async delete(caller: Caller, id: string): Promise<void> {
    assertOrgWide(caller, 'manage API keys');
    if (caller.keyId === id) {
      throw new ServiceError('conflict', 'A key cannot delete itself: delete it with another key.');
    }
    const stored = await this.#key(id);
    await this.#retire(stored, this.#now());
  }

  /** A deleted project's keys reach nothing now: they stop, as a deleted key does. */
  async retireProjectKeys(project: string): Promise<void> {
    for (const stored of await this.#keys.list()) {
      if (stored.record.project_id === project && stored.record.deleted_at === null) {
        await this.#retire(stored, this.#now());
      }
    }
  }

  /**
   * A key of its own for a deployment's code, scoped to the deployment's project: what its code
   * calls the API with. 409 when the server holds as many keys as it may.
   */
  async mintDeploymentKey(
    project: string,
    purpose: string,
    deployer: Deployer | undefined,
    expiresAt?: Date,
  ): Promise<{ readonly id: string; readonly key: string }> {
    const created = await this.#store(
      {
        name: purpose,
        project_id: project,
        read_only: false,
        expires_at: expiresAt === undefined ? null : formatTimestamp(expiresAt),
      },
      { mintedBy: deployer?.keyId ?? 'service', parentKey: deployer?.parentKey },
    );
    return { id: created.id, key: created.key };
  }

  /** A key minted for a run goes with it: nothing is kept of it. */
  async retireDeploymentKey(id: string): Promise<void> {
    const stored = await this.#keys.get(id);
    if (stored?.mintedBy !== undefined) await this.#keys.delete(id);
    else if (stored && stored.record.deleted_at === null) await this.#retire(stored, this.#now());
  }

  /** A key stops at `when`: at once (deleted now), or later (a rotation's grace period). */
  async #retire(stored: StoredApiKey, when: Date): Promise<void> {
    const now = this.#now();
    const record =
      when.getTime() <= now.getTime()
        ? { ...stored.record, deleted_at: formatTimestamp(now) }
        : {
            ...stored.record,
            expires_at:
              stored.record.expires_at !== null &&
              Date.parse(stored.record.expires_at) < when.getTime()
                ? stored.record.expires_at
                : formatTimestamp(when),
          };
    await this.#keys.put(stored.record.id, { ...stored, record });
  }

  async rotate(caller: Caller, id: string, body: RotateApiKeyInput): Promise<CreatedApiKey> {
    assertOrgWide(caller, 'manage API keys');
    const stored = await this.#key(id);
    if (stored.mintedBy !== undefined)
      throw new ServiceError(
        'conflict',
        'A key minted for deployed code is not rotated: it ends with the run it was made for.',
      );
    const { record } = stored;
    let expiresAt: string | null;
    if (body?.days_to_expire !== undefined) expiresAt = this.#expiry(body.days_to_expire);
    else if (record.expires_at === null) expiresAt = null;
    else {
      const lifetime = Date.parse(record.expires_at) - Date.parse(record.created_at);
      expiresAt = formatTimestamp(new Date(this.#now().getTime() + lifetime));
    }
    const created = await this.#store({
      name: record.name,
      project_id: record.project_id,
      read_only: record.read_only,
      expires_at: expiresAt,
    });
    const grace = (body?.expire_in_days ?? 0) * DAY_MS;
    // The keys minted by the old key's deploys follow it to the new one.
    await this.#retire(
      { ...stored, rotatedTo: created.id },
      new Date(this.#now().getTime() + grace),
    );
    return created;
  }

  /** Forgets keys deleted before `before`: their record was kept for a while, no longer. */
  async pruneDeleted(before: Date): Promise<void> {
    for (const stored of await this.#keys.list()) {
      const { deleted_at: deletedAt } = stored.record;
      if (deletedAt !== null && Date.parse(deletedAt) < before.getTime()) {
        await this.#keys.delete(stored.record.id);
      }
    }
  }
}
