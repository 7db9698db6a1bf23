import { type AuthConnection, NAME_PATTERN } from '@x/types';
import type { CredentialModel } from '../credentials/credential-model.js';
import {
  type CredentialProviderModel,
  itemMatches,
} from '../credentials/credential-provider-model.js';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import type { Caller } from '../pipeline/auth.js';
import { ServiceError } from '../service-error.js';
import type { AuthConnectionStore } from './auth-connection-store.js';
import { hostIs, SSO_PROVIDER_SITES } from './auth-sites.js';
import type { SignInValues } from './sign-in-values.js';

/**
 * A connection's credential: whether it fits the connection's sites, what a sign-in fills from,
 * and what a person typed, kept for the next sign-in.
 */
export class AuthCredentials<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #credentials: CredentialModel<I>;
  readonly #providers: () => CredentialProviderModel | undefined;
  readonly #store: AuthConnectionStore<I>;

  constructor(
    context: ModelContext<I>,
    credentials: CredentialModel<I>,
    providers: () => CredentialProviderModel | undefined,
    store: AuthConnectionStore<I>,
  ) {
    this.#context = context;
    this.#credentials = credentials;
    this.#providers = providers;
    this.#store = store;
  }

  /**
   * What a flow fills from: the credential named (typed on its domain only), a provider's item
   * (on its websites only, and only for a project the provider is opened to, or a connection an
   * organization-wide key set up), or nothing.
   */
  async valuesOf(record: AuthConnection): Promise<SignInValues> {
    const reference = record.credential;
    const given = new Map<string, string>();
    const nowhere = () => false;
    if (reference?.name !== undefined) {
      const opened = await this.#credentials
        .openForSignIn(reference.name)
        .catch((error: unknown) => {
          if (error instanceof ServiceError && error.code === 'not_found') return undefined;
          throw error;
        });
      if (!opened) return { stored: {}, given, isCredentialHost: nowhere };
      const sites = [
        opened.domain,
        ...(SSO_PROVIDER_SITES[opened.ssoProvider?.toLowerCase() ?? ''] ?? []),
      ];
      return {
        stored: opened.values,
        totpSecret: opened.totpSecret,
        given,
        isCredentialHost: (host) => sites.some((site) => hostIs(host, site)),
      };
    }
    if (reference?.provider !== undefined) {
      const providers = this.#providers();
      if (!providers) return { stored: {}, given, isCredentialHost: nowhere };
      try {
        const stored = await this.#store.get(record.id);
        if (
          stored?.isProviderGranted !== true &&
          !(await providers.isUsableBy(reference.provider, this.#context.project))
        )
          throw providerRefusal(reference.provider);
        const login = reference.path
          ? await providers.login(reference.provider, reference.path)
          : await providers.loginFor(record.domain, reference.provider);
        if (!login) return { stored: {}, given, isCredentialHost: nowhere };
        return {
          stored: login.values,
          totpSecret: login.totpSecret,
          given,
          isCredentialHost: (host) => itemMatches(login.sites, host),
        };
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        throw new ServiceError(
          'bad_gateway',
          `Credential provider "${reference.provider}": ${error instanceof Error ? error.message : String(error)}.`,
        );
      }
    }
    return { stored: {}, given, isCredentialHost: nowhere };
  }

  /**
   * Refuses a connection whose sites are not its credential's: a credential's values are for its
   * own domain (a provider item's: its websites), so the connection's domain and its login page
   * must be there. A named credential that does not exist yet is made for the connection's domain
   * by its first sign-in. A provider's items are read only by a project it is opened to, or by an
   * organization-wide caller: true when such a caller gave the reference (the grant is kept).
   */
  async assertFits(
    record: AuthConnection,
    caller: Caller | undefined,
    isGranted = false,
  ): Promise<boolean> {
    const reference = record.credential;
    if (reference === undefined) return false;
    const hosts = [record.domain.replace(/^\*\./, '')];
    if (record.login_url !== undefined)
      hosts.push(new URL(record.login_url).hostname.toLowerCase());
    const where = `${record.domain}${record.login_url === undefined ? '' : ` (login_url ${record.login_url})`}`;
    const misfit = (what: string) =>
      new ServiceError(
        'bad_request',
        `${what}: an auth connection for ${where} cannot use it. Its domain and login_url must be the credential's own sites.`,
      );
    if (reference.name !== undefined) {
      const credential = await this.#credentials.get(reference.name).catch((error: unknown) => {
        if (error instanceof ServiceError && error.code === 'not_found') return undefined;
        throw error;
      });
      if (credential && !hosts.every((host) => hostIs(host, credential.domain)))
        throw misfit(`The credential "${reference.name}" is for ${credential.domain}`);
      return false;
    }
    if (reference.provider === undefined) return false;
    const providers = this.#providers();
    if (!providers) return false;
    const isOrgWide = caller !== undefined && caller.project === undefined;
    if (
      !isOrgWide &&
      !isGranted &&
      !(await providers.isUsableBy(reference.provider, this.#context.project))
    )
      throw providerRefusal(reference.provider);
    if (reference.path !== undefined) {
      let item: Awaited<ReturnType<CredentialProviderModel['item']>>;
      try {
        item = await providers.item(reference.provider, reference.path);
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        throw new ServiceError(
          'bad_gateway',
          `Credential provider "${reference.provider}": ${error instanceof Error ? error.message : String(error)}.`,
        );
      }
      if (!hosts.every((host) => itemMatches(item.urls ?? [], host)))
        throw misfit(
          `The item "${reference.path}" is for ${(item.urls ?? []).join(', ') || 'no website'}`,
        );
    } else if (!hosts.every((host) => hostIs(host, record.domain))) {
      // The provider picks an item by the connection's domain: the login page must be on it.
      throw misfit(`A provider's item is picked by the connection's domain ${record.domain}`);
    }
    return isOrgWide;
  }

  /** Keeps what a person typed (not one-time codes) in the connection's credential. */
  async keep(record: AuthConnection, kept: Map<string, string>): Promise<void> {
    const reference = record.credential;
    if (reference?.provider !== undefined) return;
    const name =
      reference?.name ??
      `${record.profile_name}-${record.domain}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 255);
    if (!NAME_PATTERN.test(name)) return;
    // Values typed on one site are never merged into a credential of another.
    const existing = await this.#credentials.get(name).catch(() => undefined);
    if (existing && !hostIs(record.domain.replace(/^\*\./, ''), existing.domain)) return;
    await this.#credentials.keepFromSignIn(name, record.domain, Object.fromEntries(kept));
    if (reference?.name === undefined)
      await this.#store.write(record.id, (current) => ({ ...current, credential: { name } }));
  }
}

/** Why a project may not read a provider's items, and who can change that. */
function providerRefusal(provider: string): ServiceError {
  return new ServiceError(
    'forbidden',
    `Credential provider "${provider}" is not opened to this project: an organization-wide key can add the project to its allowed_projects, or set up the connection itself.`,
  );
}
