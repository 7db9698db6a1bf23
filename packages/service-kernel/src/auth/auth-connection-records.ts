import {
  AUTH_CONNECTION_LIMITS,
  type AuthConnection,
  type CreateAuthConnectionBody,
  type UpdateAuthConnectionBody,
} from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { notFound } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import type { ProfileModel } from '../profiles/profile-model.js';
import type { StoredAuthConnection } from '../records/record-store.js';
import { ServiceError } from '../service-error.js';
import type { AuthFlow } from './auth-flow.js';

/** Most connections a project keeps. */
export const MAX_AUTH_CONNECTIONS = 500;

/** Refuses a new connection its profile has already for the domain, or one past the cap. */
export function assertRoomFor(
  all: readonly StoredAuthConnection[],
  body: CreateAuthConnectionBody,
): void {
  if (
    all.some(
      ({ record }) => record.domain === body.domain && record.profile_name === body.profile_name,
    )
  )
    throw new ServiceError(
      'conflict',
      `Profile "${body.profile_name}" already has an auth connection for ${body.domain}.`,
    );
  if (all.length >= MAX_AUTH_CONNECTIONS)
    throw new ServiceError(
      'conflict',
      `A project keeps at most ${MAX_AUTH_CONNECTIONS} auth connections: delete one first.`,
    );
}

/** A new connection: it needs a sign-in; what the body leaves out takes its default. */
export function newRecord(
  id: string,
  body: CreateAuthConnectionBody,
  proxyId: string | undefined,
  now: string,
): AuthConnection {
  return {
    id,
    domain: body.domain,
    profile_name: body.profile_name,
    status: 'NEEDS_AUTH',
    save_credentials: body.save_credentials ?? true,
    record_session: body.record_session ?? false,
    allowed_domains: body.allowed_domains ?? [],
    auto_reauth: body.auto_reauth ?? true,
    health_checks: body.health_checks ?? true,
    health_check_interval:
      body.health_check_interval ?? AUTH_CONNECTION_LIMITS.healthCheckDefaultSeconds,
    ...(body.login_url && { login_url: body.login_url }),
    ...(proxyId !== undefined && { proxy_id: proxyId }),
    ...(body.credential !== undefined && { credential: { ...body.credential } }),
    created_at: now,
    updated_at: now,
  };
}

/**
 * The connection as `body` changes it (an empty `login_url` removes it); `proxyId` is the proxy
 * `body.proxy` names, when it names one.
 */
export function changedRecord(
  current: AuthConnection,
  body: UpdateAuthConnectionBody,
  proxyId: string | undefined,
): AuthConnection {
  const record: AuthConnection = { ...current };
  if (body.allowed_domains !== undefined) record.allowed_domains = [...body.allowed_domains];
  if (body.auto_reauth !== undefined) record.auto_reauth = body.auto_reauth;
  if (body.health_checks !== undefined) record.health_checks = body.health_checks;
  if (body.health_check_interval !== undefined)
    record.health_check_interval = body.health_check_interval;
  if (body.login_url === '') delete record.login_url;
  else if (body.login_url !== undefined) record.login_url = body.login_url;
  if (body.proxy !== undefined) record.proxy_id = proxyId;
  if (body.credential !== undefined) record.credential = { ...body.credential };
  if (body.record_session !== undefined) record.record_session = body.record_session;
  if (body.save_credentials !== undefined) record.save_credentials = body.save_credentials;
  return record;
}

/**
 * Whether a changed connection keeps the grant it had to read a provider's items: a grant stays
 * with the reference and the sites it was given for, so a project key may change the rest.
 */
export function keepsGrant(stored: StoredAuthConnection, record: AuthConnection): boolean {
  const isUnchanged =
    JSON.stringify(record.credential) === JSON.stringify(stored.record.credential) &&
    record.domain === stored.record.domain &&
    record.login_url === stored.record.login_url;
  return isUnchanged && stored.isProviderGranted === true;
}

/** Which connections a list shows: of a domain, of a profile, matching a search. */
export function listFilter(query: {
  readonly domain?: string | undefined;
  readonly profile_name?: string | undefined;
  readonly query?: string | undefined;
}): (record: AuthConnection) => boolean {
  const needle = query.query?.toLowerCase();
  return (record) =>
    (query.domain === undefined || record.domain === query.domain) &&
    (query.profile_name === undefined || record.profile_name === query.profile_name) &&
    (needle === undefined ||
      record.id === query.query ||
      record.domain.includes(needle) ||
      record.profile_name.toLowerCase().includes(needle));
}

/** Whether the connection can sign in again by itself, and why (or why not). */
export function canReauth(record: AuthConnection): { can: boolean; reason: string } {
  const hasSucceeded = record.post_login_url !== undefined;
  if (record.credential?.provider !== undefined)
    return {
      can: hasSucceeded,
      reason: hasSucceeded ? 'external_credential' : 'no_prior_successful_login',
    };
  if (record.credential?.name === undefined) return { can: false, reason: 'no_credential' };
  if (!hasSucceeded) return { can: false, reason: 'no_prior_successful_login' };
  return { can: true, reason: 'has_credential' };
}

/** The connection as the API shows it: with `can_reauth`, and the state of its running flow. */
export function answerOf(record: AuthConnection, flow: AuthFlow | undefined): AuthConnection {
  const { can, reason } = canReauth(record);
  return {
    ...record,
    can_reauth: can,
    can_reauth_reason: reason,
    ...flow?.state(),
  };
}

/** The id of the proxy a connection names (by id or name); 404 when there is none. */
export async function proxyIdOf<I extends BrowserInstance>(
  context: ModelContext<I>,
  reference: { id: string } | { name: string } | undefined,
): Promise<string | undefined> {
  if (reference === undefined) return undefined;
  const table = context.engines.records.proxies;
  const stored =
    'id' in reference ? await table.get(reference.id) : await table.byName(reference.name);
  if (!stored) throw notFound('proxy', 'id' in reference ? reference.id : reference.name);
  return stored.record.id;
}

/** Makes the connection's profile when it does not exist yet. */
export async function ensureProfile<I extends BrowserInstance>(
  profiles: ProfileModel<I>,
  name: string,
): Promise<void> {
  try {
    await profiles.find(name);
  } catch (error) {
    if (!(error instanceof ServiceError) || error.code !== 'not_found') throw error;
    await profiles.create(name);
  }
}
