import {
  type CreateCredentialProviderBody,
  type CredentialProvider,
  type CredentialProviderItem,
  type CredentialProviderTestResult,
  formatTimestamp,
  type Page,
  pageOf,
  type UpdateCredentialProviderBody,
} from '@x/types';
import type { SecretBox } from '../engines.js';
import type { IdGenerator } from '../ids.js';
import { notFound, refusals } from '../messages.js';
import type { ModelLog } from '../model-context.js';
import { findByIdOrName, putNamed } from '../records/named-records.js';
import type { RecordStore, StoredCredentialProvider } from '../records/record-store.js';
import { ServiceError } from '../service-error.js';
import type { ProviderClient } from './provider-client.js';

/** Most credential providers an organization keeps. */
export const MAX_CREDENTIAL_PROVIDERS = 100;

/** Most vaults, and items in all of them, read from one provider. */
const MAX_VAULTS = 200;
const MAX_ITEMS = 5000;

/** The 1Password item categories that hold a login. */
const LOGIN_CATEGORIES = new Set(['LOGIN', 'PASSWORD']);

/** What a list of credential providers is filtered by. */
export interface CredentialProviderQuery {
  readonly offset: number;
  readonly limit: number;
  readonly query?: string | undefined;
}

/** What a provider item holds for a sign-in: its values by name, and its TOTP secret. */
export interface ProviderLogin {
  readonly values: Readonly<Record<string, string>>;
  readonly totpSecret?: string | undefined;
  /** The item's websites: the only sites its values are typed on. */
  readonly sites: readonly string[];
}

/** What the provider model works with. */
export interface CredentialProviderModelOptions {
  /** The organization's records: providers are the organization's, not a project's. */
  readonly records: RecordStore;
  readonly client: ProviderClient;
  readonly secrets: SecretBox;
  readonly clock: () => Date;
  readonly nextId: IdGenerator;
  readonly log: ModelLog;
}

interface Vault {
  readonly id: string;
  readonly name: string;
}

interface CachedLists {
  readonly until: number;
  readonly vaults: readonly Vault[];
  readonly items: readonly CredentialProviderItem[];
}

/** A 1Password Connect answer that is not what its documented API says: the provider is broken. */
class ProviderFailed extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** A TOTP secret from a 1Password OTP field: an `otpauth://` URI's `secret`, or base32 itself. */
export function totpSecretOf(value: string): string | undefined {
  let secret = value.trim();
  if (secret.startsWith('otpauth://')) {
    try {
      secret = new URL(secret).searchParams.get('secret') ?? '';
    } catch {
      return undefined;
    }
  }
  secret = secret.replace(/[\s=]/g, '').toUpperCase();
  return /^[A-Z2-7]{16,128}$/.test(secret) ? secret : undefined;
}

/** The host a URL or a bare site names, lower-case; undefined when it names none. */
function hostOf(site: string): string | undefined {
  try {
    return new URL(site.includes('://') ? site : `https://${site}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Whether an item listing `urls` is for `domain`: its host exactly, or `*.host` for subdomains. */
export function itemMatches(urls: readonly string[], domain: string): boolean {
  const wanted = domain.toLowerCase();
  return urls.some((site) => {
    const wildcard = site.trim().startsWith('*.');
    const host = hostOf(wildcard ? site.trim().slice(2) : site);
    if (host === undefined) return false;
    return host === wanted || (wildcard && wanted.endsWith(`.${host}`));
  });
}

/** A provider as answered: one kept before it could be opened to projects is opened to none. */
function answerOf(record: CredentialProvider): CredentialProvider {
  return { ...record, allowed_projects: [...(record.allowed_projects ?? [])] };
}

/**
 * The organization's credential providers: 1Password vaults read through a 1Password Connect
 * server (`GET /v1/vaults`, `/v1/vaults/{id}/items`, `/v1/vaults/{id}/items/{id}`, bearer token).
 * Tokens are sealed and write-only; lists of vaults and items are kept `cache_ttl_seconds`; an
 * item's values are read when a sign-in needs them and never kept.
 */
export class CredentialProviderModel {
  readonly #options: CredentialProviderModelOptions;
  readonly #cache = new Map<string, CachedLists>();

  constructor(options: CredentialProviderModelOptions) {
    this.#options = options;
  }

  get #records() {
    return this.#options.records.credentialProviders;
  }

  async create(body: CreateCredentialProviderBody): Promise<CredentialProvider> {
    if (await this.#records.byName(body.name))
      throw refusals.nameTaken('credential provider', body.name);
    if ((await this.#records.list()).length >= MAX_CREDENTIAL_PROVIDERS)
      throw new ServiceError(
        'conflict',
        `An organization keeps at most ${MAX_CREDENTIAL_PROVIDERS} credential providers: delete one first.`,
      );
    const url = body.url ?? this.#options.client.defaultUrl;
    if (url === undefined)
      throw new ServiceError(
        'bad_request',
        'This service has no default 1Password Connect address (XB_ONEPASSWORD_CONNECT_URL): give the provider a url.',
      );
    const now = formatTimestamp(this.#options.clock());
    const record: CredentialProvider = {
      id: this.#options.nextId('cp'),
      name: body.name,
      provider_type: body.provider_type,
      url: url.replace(/\/+$/, ''),
      enabled: body.enabled,
      priority: body.priority,
      cache_ttl_seconds: body.cache_ttl_seconds,
      allowed_projects: [...new Set(body.allowed_projects)],
      created_at: now,
      updated_at: now,
    };
    const stored = { record, sealedToken: this.#options.secrets.seal(body.token) };
    await putNamed(this.#records, record.id, stored, record.name, 'credential provider');
    return { ...record };
  }

  async list(query: CredentialProviderQuery): Promise<Page<CredentialProvider>> {
    const needle = query.query?.toLowerCase();
    const records = (await this.#records.list())
      .map((stored) => answerOf(stored.record))
      .filter(
        (record) =>
          needle === undefined ||
          record.id === query.query ||
          record.name.toLowerCase().includes(needle),
      );
    return pageOf(records, query.offset, query.limit);
  }

  async get(idOrName: string): Promise<CredentialProvider> {
    return answerOf((await this.#find(idOrName)).record);
  }

  async update(idOrName: string, body: UpdateCredentialProviderBody): Promise<CredentialProvider> {
    const stored = await this.#find(idOrName);
    const { record } = stored;
    if (
      body.name !== undefined &&
      body.name !== record.name &&
      (await this.#records.byName(body.name))
    )
      throw refusals.nameTaken('credential provider', body.name);
    const next: CredentialProvider = {
      ...answerOf(record),
      ...(body.name !== undefined && { name: body.name }),
      ...(body.url !== undefined && { url: body.url.replace(/\/+$/, '') }),
      ...(body.enabled !== undefined && { enabled: body.enabled }),
      ...(body.priority !== undefined && { priority: body.priority }),
      ...(body.cache_ttl_seconds !== undefined && { cache_ttl_seconds: body.cache_ttl_seconds }),
      ...(body.allowed_projects !== undefined && {
        allowed_projects: [...new Set(body.allowed_projects)],
      }),
      updated_at: formatTimestamp(this.#options.clock()),
    };
    const sealedToken =
      body.token === undefined ? stored.sealedToken : this.#options.secrets.seal(body.token);
    await putNamed(
      this.#records,
      record.id,
      { record: next, sealedToken },
      next.name,
      'credential provider',
    );
    this.#cache.delete(record.id);
    return { ...next };
  }

  async delete(idOrName: string): Promise<void> {
    const stored = await this.#find(idOrName);
    await this.#records.delete(stored.record.id);
    this.#cache.delete(stored.record.id);
  }

  /** Asks the provider for its vaults with the token: whether it answers and takes it. */
  async test(idOrName: string): Promise<CredentialProviderTestResult> {
    const stored = await this.#find(idOrName);
    try {
      const vaults = await this.#vaults(stored);
      return { success: true, vaults: vaults.map(({ id, name }) => ({ id, name })) };
    } catch (error) {
      return { success: false, vaults: [], error: this.#why(stored, error) };
    }
  }

  /** The login items of every vault the token reaches (kept `cache_ttl_seconds`); 502 when it fails. */
  async items(idOrName: string): Promise<CredentialProviderItem[]> {
    const stored = await this.#find(idOrName);
    try {
      return (await this.#lists(stored)).items.map((item) => ({ ...item }));
    } catch (error) {
      throw new ServiceError(
        'bad_gateway',
        `Credential provider "${stored.record.name}": ${this.#why(stored, error)}.`,
      );
    }
  }

  /**
   * The values of the item at `path` ("<vault>/<item>") of a provider, read now (never kept):
   * a username-purpose field as `username`, a password-purpose field as `password`, an OTP
   * field as the TOTP secret, other fields by their labels.
   */
  async login(idOrName: string, path: string): Promise<ProviderLogin> {
    const stored = await this.#find(idOrName);
    return this.#loginOf(stored, await this.#itemAt(stored, path));
  }

  /** The item at `path` ("<vault>/<item>") of a provider, without its values; 404 when none. */
  async item(idOrName: string, path: string): Promise<CredentialProviderItem> {
    return { ...(await this.#itemAt(await this.#find(idOrName), path)) };
  }

  async #itemAt(stored: StoredCredentialProvider, path: string): Promise<CredentialProviderItem> {
    const item = (await this.#lists(stored)).items.find((candidate) => candidate.path === path);
    if (!item)
      throw new ServiceError(
        'not_found',
        `Credential provider "${stored.record.name}" has no item "${path}".`,
      );
    return item;
  }

  /**
   * Whether sign-ins of `project` may read the provider's items: an organization-wide caller's
   * (`project` undefined) always may; a project's, the default one's too, only when the provider
   * is opened to it. A project key of the default project is still one project's key.
   */
  async isUsableBy(idOrName: string, project: string | undefined): Promise<boolean> {
    if (project === undefined) return true;
    const { record } = await this.#find(idOrName);
    return (record.allowed_projects ?? []).includes(project);
  }

  /**
   * The first item for `domain` in the enabled providers (`only` that one, by id or name), by
   * priority; undefined when none has one.
   */
  async loginFor(domain: string, only?: string): Promise<ProviderLogin | undefined> {
    const providers = (await this.#records.list())
      .filter(
        ({ record }) =>
          record.enabled && (only === undefined || record.id === only || record.name === only),
      )
      .sort((a, b) => a.record.priority - b.record.priority);
    for (const stored of providers) {
      const lists = await this.#lists(stored).catch((error: unknown) => {
        this.#options.log.warn(
          { provider: stored.record.id, reason: this.#why(stored, error) },
          'a credential provider could not be read',
        );
        return undefined;
      });
      const item = lists?.items.find((candidate) => itemMatches(candidate.urls ?? [], domain));
      if (item) return this.#loginOf(stored, item);
    }
    return undefined;
  }

  async #loginOf(
    stored: StoredCredentialProvider,
    item: CredentialProviderItem,
  ): Promise<ProviderLogin> {
    const full = await this.#get(
      stored,
      `/v1/vaults/${encodeURIComponent(item.vault_id)}/items/${encodeURIComponent(item.id)}`,
    );
    if (!isObject(full) || !Array.isArray(full.fields))
      throw new ProviderFailed('an item came without fields');
    const values: Record<string, string> = {};
    let totpSecret: string | undefined;
    for (const field of full.fields) {
      if (!isObject(field)) continue;
      const value = text(field.value);
      if (value === undefined || value === '') continue;
      if (field.type === 'OTP') {
        totpSecret ??= totpSecretOf(value);
        continue;
      }
      const key =
        field.purpose === 'USERNAME'
          ? 'username'
          : field.purpose === 'PASSWORD'
            ? 'password'
            : text(field.label)?.trim();
      if (key && !(key in values)) values[key] = value;
    }
    return { values, totpSecret, sites: item.urls ?? [] };
  }

  async #lists(stored: StoredCredentialProvider): Promise<CachedLists> {
    const { record } = stored;
    const now = this.#options.clock().getTime();
    const cached = this.#cache.get(record.id);
    if (cached && cached.until > now) return cached;
    const vaults = await this.#vaults(stored);
    const items: CredentialProviderItem[] = [];
    for (const vault of vaults) {
      const summaries = await this.#get(stored, `/v1/vaults/${encodeURIComponent(vault.id)}/items`);
      if (!Array.isArray(summaries)) throw new ProviderFailed('a list of items was not a list');
      for (const summary of summaries) {
        if (!isObject(summary)) continue;
        const id = text(summary.id);
        const title = text(summary.title);
        const category = text(summary.category);
        if (!id || !title || (category !== undefined && !LOGIN_CATEGORIES.has(category))) continue;
        const urls = Array.isArray(summary.urls)
          ? summary.urls.flatMap((entry) => {
              const href = isObject(entry) ? text(entry.href) : undefined;
              return href ? [href] : [];
            })
          : [];
        items.push({
          id,
          title,
          path: `${vault.name}/${title}`,
          vault_id: vault.id,
          vault_name: vault.name,
          ...(urls.length > 0 && { urls }),
        });
        if (items.length >= MAX_ITEMS) break;
      }
      if (items.length >= MAX_ITEMS) break;
    }
    const lists = { until: now + record.cache_ttl_seconds * 1000, vaults, items };
    if (record.cache_ttl_seconds > 0) this.#cache.set(record.id, lists);
    return lists;
  }

  async #vaults(stored: StoredCredentialProvider): Promise<Vault[]> {
    const answer = await this.#get(stored, '/v1/vaults');
    if (!Array.isArray(answer)) throw new ProviderFailed('the list of vaults was not a list');
    return answer
      .flatMap((vault) => {
        const id = isObject(vault) ? text(vault.id) : undefined;
        const name = isObject(vault) ? text(vault.name) : undefined;
        return id && name ? [{ id, name }] : [];
      })
      .slice(0, MAX_VAULTS);
  }

  async #get(stored: StoredCredentialProvider, path: string): Promise<unknown> {
    const token = this.#options.secrets.open(stored.sealedToken);
    const answer = await this.#options.client.get(`${stored.record.url}${path}`, token);
    if (answer.status === 401 || answer.status === 403)
      throw new ProviderFailed(`the provider did not accept the token (${answer.status})`);
    if (answer.status !== 200) {
      const message = isObject(answer.json) ? text(answer.json.message) : undefined;
      throw new ProviderFailed(
        `the provider answered ${answer.status}${message ? `: ${message.slice(0, 200)}` : ''}`,
      );
    }
    return answer.json;
  }

  /** Why a call to a provider failed, in words (never the token, never the provider's body). */
  #why(stored: StoredCredentialProvider, error: unknown): string {
    if (error instanceof ProviderFailed) return error.message;
    const message = error instanceof Error ? error.message : String(error);
    this.#options.log.warn(
      { provider: stored.record.id, reason: message },
      'a credential provider did not answer',
    );
    return `no answer from ${stored.record.url}: ${message}`;
  }

  async #find(idOrName: string): Promise<StoredCredentialProvider> {
    const stored = await findByIdOrName(this.#records, idOrName);
    if (!stored) throw notFound('credential provider', idOrName);
    return stored;
  }
}
