import {
  type CreateCredentialBody,
  type Credential,
  formatTimestamp,
  type Page,
  pageOf,
  type TotpCode,
  type UpdateCredentialBody,
} from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { findByIdOrName, putNamed } from '../records/named-records.js';
import type { StoredCredential } from '../records/record-store.js';
import { base32Bytes, totpCode } from './totp.js';

/** What a list of credentials is filtered by. */
export interface CredentialQuery {
  readonly offset: number;
  readonly limit: number;
  readonly domain?: string | undefined;
  readonly query?: string | undefined;
}

/**
 * Every rule of credentials: names unique in the project, values and the TOTP secret write-only
 * (sealed by the engines' secret box, never in a record, an answer or a log: a record says only
 * which values it has), values merged on update (removals first), and the current TOTP code of
 * the secret, answered only to a full token.
 */
export class CredentialModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;

  constructor(context: ModelContext<I>) {
    this.#context = context;
  }

  get #records() {
    return this.#context.engines.records.credentials;
  }

  async create(body: CreateCredentialBody): Promise<Credential> {
    if (await this.#records.byName(body.name)) throw refusals.nameTaken('credential', body.name);
    const now = formatTimestamp(this.#context.clock());
    const record: Credential = {
      id: this.#context.nextId('cred'),
      name: body.name,
      domain: body.domain,
      created_at: now,
      updated_at: now,
    };
    if (body.sso_provider !== undefined) record.sso_provider = body.sso_provider;
    const totpSecret = body.totp_secret || undefined;
    const stored = this.#stored(record, body.values, totpSecret);
    await putNamed(this.#records, record.id, stored, record.name, 'credential');
    return this.#answer(stored.record, totpSecret);
  }

  async list(query: CredentialQuery): Promise<Page<Credential>> {
    const needle = query.query?.toLowerCase();
    const records = (await this.#records.list())
      .map((stored) => stored.record)
      .filter(
        (record) =>
          (query.domain === undefined || record.domain === query.domain) &&
          (needle === undefined ||
            record.id === query.query ||
            record.name.toLowerCase().includes(needle) ||
            record.domain.includes(needle)),
      )
      // A list names no values (a single credential does).
      .map(({ value_keys: _keys, ...record }) => record);
    return pageOf(records, query.offset, query.limit);
  }

  async get(idOrName: string): Promise<Credential> {
    return (await this.#find(idOrName)).record;
  }

  /**
   * Changes what the body gives: `remove_value_keys` first, then `values` merged over what is
   * left; `sso_provider` null or "" clears it; `totp_secret` "" removes it.
   */
  async update(idOrName: string, body: UpdateCredentialBody): Promise<Credential> {
    const stored = await this.#find(idOrName);
    const id = stored.record.id;
    if (
      body.name !== undefined &&
      body.name !== stored.record.name &&
      (await this.#records.byName(body.name))
    )
      throw refusals.nameTaken('credential', body.name);
    const record: Credential = { ...stored.record };
    if (body.name !== undefined) record.name = body.name;
    if (body.sso_provider === null || body.sso_provider === '') delete record.sso_provider;
    else if (body.sso_provider !== undefined) record.sso_provider = body.sso_provider;
    const { secrets } = this.#context.engines;
    let sealedValues = stored.sealedValues;
    let keys = stored.record.value_keys ?? [];
    if (body.values !== undefined || body.remove_value_keys !== undefined) {
      const values: Record<string, string> =
        stored.sealedValues === undefined ? {} : JSON.parse(this.#open(id, stored.sealedValues));
      for (const key of body.remove_value_keys ?? []) delete values[key];
      Object.assign(values, body.values ?? {});
      keys = Object.keys(values);
      sealedValues = keys.length > 0 ? secrets.seal(JSON.stringify(values)) : undefined;
    }
    // A secret given replaces the one kept; "" removes it.
    const totpSecret = body.totp_secret;
    const sealedTotpSecret =
      totpSecret === undefined
        ? stored.sealedTotpSecret
        : totpSecret === ''
          ? undefined
          : secrets.seal(totpSecret);
    record.updated_at = formatTimestamp(this.#context.clock());
    const next: StoredCredential = {
      record: { ...this.#withKeys(record, keys), has_totp_secret: sealedTotpSecret !== undefined },
      sealedValues,
      sealedTotpSecret,
    };
    await putNamed(this.#records, id, next, next.record.name, 'credential');
    return this.#answer(next.record, totpSecret || undefined);
  }

  async delete(idOrName: string): Promise<void> {
    const stored = await this.#find(idOrName);
    await this.#records.delete(stored.record.id);
  }

  /** The current code of its TOTP secret; 409 when it has none. */
  async totpCode(idOrName: string): Promise<TotpCode> {
    const stored = await this.#find(idOrName);
    const id = stored.record.id;
    if (stored.sealedTotpSecret === undefined) throw refusals.noTotpSecret(id);
    const secret = this.#open(id, stored.sealedTotpSecret);
    const { code, expiresAt } = totpCode(base32Bytes(secret), this.#context.clock());
    return { code, expires_at: formatTimestamp(expiresAt) };
  }

  /**
   * What a sign-in fills from a credential: its values and TOTP secret, opened. For the
   * service's own sign-ins only: never answered.
   */
  async openForSignIn(idOrName: string): Promise<{
    values: Record<string, string>;
    totpSecret?: string | undefined;
    domain: string;
    ssoProvider?: string | undefined;
  }> {
    const stored = await this.#find(idOrName);
    const id = stored.record.id;
    return {
      domain: stored.record.domain,
      ssoProvider: stored.record.sso_provider ?? undefined,
      values:
        stored.sealedValues === undefined ? {} : JSON.parse(this.#open(id, stored.sealedValues)),
      totpSecret:
        stored.sealedTotpSecret === undefined ? undefined : this.#open(id, stored.sealedTotpSecret),
    };
  }

  /**
   * Keeps values a sign-in was given (merged over the credential's, which is made for `domain`
   * when there is none of that name): what the next sign-in fills by itself.
   */
  async keepFromSignIn(
    name: string,
    domain: string,
    values: Record<string, string>,
  ): Promise<void> {
    if (Object.keys(values).length === 0) return;
    if (await this.#records.byName(name)) await this.update(name, { values });
    else await this.create({ name, domain, values });
  }

  /** The record kept for these values and secret, each sealed (nothing sealed for nothing). */
  #stored(
    record: Credential,
    values: Readonly<Record<string, string>>,
    totpSecret: string | undefined,
  ): StoredCredential {
    const { secrets } = this.#context.engines;
    const keys = Object.keys(values);
    const kept = this.#withKeys(record, keys);
    kept.has_totp_secret = totpSecret !== undefined;
    return {
      record: kept,
      sealedValues: keys.length > 0 ? secrets.seal(JSON.stringify(values)) : undefined,
      sealedTotpSecret: totpSecret === undefined ? undefined : secrets.seal(totpSecret),
    };
  }

  #withKeys(record: Credential, keys: readonly string[]): Credential {
    return { ...record, has_values: keys.length > 0, value_keys: [...keys].sort() };
  }

  /** The answer to a call: with the current TOTP code when the call just set the secret. */
  #answer(record: Credential, justSetTotp: string | undefined): Credential {
    if (justSetTotp === undefined) return { ...record };
    const { code, expiresAt } = totpCode(base32Bytes(justSetTotp), this.#context.clock());
    return { ...record, totp_code: code, totp_code_expires_at: formatTimestamp(expiresAt) };
  }

  /** A sealed secret opened; 409 when this service's key cannot open it (the key changed). */
  #open(id: string, sealed: string): string {
    try {
      return this.#context.engines.secrets.open(sealed);
    } catch (error) {
      this.#context.log.error({ err: error, credential: id }, 'a credential cannot be opened');
      throw refusals.credentialSealedElsewhere(id);
    }
  }

  async #find(idOrName: string): Promise<StoredCredential> {
    const stored = await findByIdOrName(this.#records, idOrName);
    if (!stored) throw notFound('credential', idOrName);
    return stored;
  }
}
