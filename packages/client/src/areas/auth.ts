/**
 * The `auth` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */

import { defineCall } from '../calls/define-call.js';
import type { PagePromise } from '../calls/list-page.js';
import { defineListCall } from '../calls/list-page.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type { EventStream } from '../streams/event-stream.js';
import { readStreamBody } from '../streams/read-body.js';

// Records

export interface AuthField {
  /** what `submit` names its value by (field_values) */
  id: string;
  /** the same, as the page names it */
  ref: string;
  /** what it asks for: identifier, password, code, totp_code, totp_secret, text */
  type: 'identifier' | 'password' | 'code' | 'totp_code' | 'totp_secret' | 'text';
  /** its label on the page */
  label?: string | undefined;
  /** a CSS selector of it on the page */
  observed_selector?: string | null | undefined;
  /** whether the form needs it */
  required?: boolean | undefined;
}

export interface DiscoveredField {
  /** its label on the page */
  label: string;
  /** what `submit` names it by (fields) */
  name: string;
  /** a CSS selector of it on the page */
  selector: string;
  /** its kind of input */
  type: 'text' | 'email' | 'password' | 'tel' | 'number' | 'url' | 'code' | 'totp';
  /** its placeholder text */
  placeholder?: string | undefined;
  /** whether the form needs it */
  required?: boolean | undefined;
}

export interface AuthConnection {
  /** the connection's id */
  id: string;
  /** the site it signs in to */
  domain: string;
  /** the profile it keeps signed in */
  profile_name: string;
  /** AUTHENTICATED or NEEDS_AUTH, as the last sign-in or health check found it */
  status: 'AUTHENTICATED' | 'NEEDS_AUTH';
  /** whether values typed in a flow are kept for the next (one-time codes never) */
  save_credentials: boolean;
  /** whether its flows' browsers are recorded */
  record_session: boolean;
  /** other sites the sign-in may pass through (its values are filled there too) */
  allowed_domains?: string[] | undefined;
  /** whether a failed health check signs in again when it can */
  auto_reauth?: boolean | undefined;
  /** whether the profile is checked periodically */
  health_checks?: boolean | undefined;
  /** seconds between health checks */
  health_check_interval?: number | null | undefined;
  /** where sign-ins start (else https://<domain>/) */
  login_url?: string | undefined;
  /** the proxy its browsers use */
  proxy_id?: string | undefined;
  /** where its values come from: {name}, {provider, path} or {provider, auto} */
  credential?:
    | {
        /** a credential of the project */
        name?: string | undefined;
        /** a credential provider */
        provider?: string | undefined;
        /** its item, "<vault>/<item>" */
        path?: string | undefined;
        /** the provider's item for the site */
        auto?: boolean | undefined;
      }
    | undefined;
  /** whether the service can sign in again by itself */
  can_reauth?: boolean | undefined;
  /** why (has_credential, external_credential, no_prior_successful_login, no_credential, requires_external_action, requires_totp_without_secret) */
  can_reauth_reason?: string | undefined;
  /** when a sign-in or health check last found out */
  last_auth_check_at?: string | undefined;
  /** how the current or last flow stands (null: none yet) */
  flow_status?: 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'EXPIRED' | 'CANCELED' | null | undefined;
  /** what it is doing */
  flow_step?:
    | 'DISCOVERING'
    | 'AWAITING_INPUT'
    | 'AWAITING_EXTERNAL_ACTION'
    | 'SUBMITTING'
    | 'COMPLETED'
    | null
    | undefined;
  /** LOGIN (a caller started it) or REAUTH (the service, after a failed health check) */
  flow_type?: 'LOGIN' | 'REAUTH' | null | undefined;
  /** when it expires unless it ends first */
  flow_expires_at?: string | null | undefined;
  /** where a person finishes the sign-in: the flow browser's live view, with control */
  hosted_url?: string | null | undefined;
  /** a read-only live view of the flow browser */
  live_view_url?: string | null | undefined;
  /** the browser the flow runs in */
  browser_session_id?: string | null | undefined;
  /** what the flow asks for (AWAITING_INPUT): submit their values by id */
  fields?: AuthField[] | null | undefined;
  /** the same fields as the page shows them */
  discovered_fields?: DiscoveredField[] | null | undefined;
  /** what a person must do at hosted_url (AWAITING_EXTERNAL_ACTION) */
  external_action_message?: string | null | undefined;
  /** why it failed: credentials_invalid, site_unreachable, no_login_form, not_signed_in, domain_not_allowed, browser_failed */
  error_code?: string | null | undefined;
  /** why it failed, in words */
  error_message?: string | null | undefined;
  /** the site's own error message, when it showed one */
  website_error?: string | null | undefined;
  /** the page the last successful sign-in ended on */
  post_login_url?: string | undefined;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when it last changed (ISO 8601 UTC) */
  updated_at: string;
}

export interface LoginResponse {
  /** the connection's id */
  id: string;
  /** LOGIN */
  flow_type: 'LOGIN' | 'REAUTH';
  /** when the flow expires */
  flow_expires_at: string;
  /** where a person can watch and finish it: the flow browser's live view, with control */
  hosted_url: string;
  /** a read-only live view of the flow browser */
  live_view_url?: string | undefined;
}

export interface SubmitResponse {
  /** whether the flow took the values (it goes on: follow its events) */
  accepted: boolean;
}

export interface AuthTimelineEvent {
  /** the entry's id */
  id: string;
  /** login, reauth or health_check */
  type: 'login' | 'reauth' | 'health_check';
  /** how it ended or stands (a health check: AUTHENTICATED or NEEDS_AUTH) */
  status:
    | 'IN_PROGRESS'
    | 'SUCCESS'
    | 'FAILED'
    | 'EXPIRED'
    | 'CANCELED'
    | 'AUTHENTICATED'
    | 'NEEDS_AUTH';
  /** a flow's last step */
  step?:
    | 'DISCOVERING'
    | 'AWAITING_INPUT'
    | 'AWAITING_EXTERNAL_ACTION'
    | 'SUBMITTING'
    | 'COMPLETED'
    | undefined;
  /** when it started */
  timestamp: string;
  /** when it last changed */
  updated_at?: string | undefined;
  /** the browser it ran in */
  browser_session_id?: string | undefined;
  /** the replay of the flow's browser, when it was recorded */
  replay_id?: string | undefined;
  /** the connection's status before it */
  previous_status?: 'AUTHENTICATED' | 'NEEDS_AUTH' | undefined;
  /** why it failed */
  error_code?: string | undefined;
  /** why it failed, in words */
  error_message?: string | undefined;
  /** the site's error message */
  website_error?: string | undefined;
}

export interface AuthContext {
  /** how the caller authenticated */
  authentication: {
    /** how the caller proved who it is: api_key (a bearer token) here */
    method: 'api_key' | 'jwt';
    /** where the credential came from: api_key here */
    source: 'api_key' | 'oauth' | 'dashboard';
    /** the API key's id, or op_ and a short hash of an operator's token (the audit log's key_id) */
    credential_id: string | null;
    /** this project's own: the API key's name, or `operator token` (`operator token (read-only)`) */
    credential_name: string;
    /** this project's own: operator_token (XB_TOKENS) or api_key, as the audit log names it */
    auth_strategy: 'operator_token' | 'api_key';
  };
  /** what the caller reaches */
  authorization: {
    /** the widest the credential reaches: a project key's project, else null */
    credential_scope: {
      /** the project; null: the whole organization */
      project_id: string | null;
    };
    /** the project this call acts in: X-Kernel-Project-Id, else the key’s project, else default; never null here */
    effective_scope: {
      /** the project; null: the whole organization */
      project_id: string | null;
    };
    /** this project's own: true when the credential reads records and metrics only */
    read_only: boolean;
  };
  /** the organization the caller belongs to */
  organization: {
    /** the organization: a server serves one, `default` */
    id: string;
  };
  /** who calls */
  principal: {
    /** the same id as credential_id */
    id: string;
    /** api_key here: no caller is a signed-in person */
    type: 'api_key' | 'user';
  };
}

// Inputs and answers

/** What `auth.connections.create` takes: its body fields. */
export interface CreateAuthConnectionInput {
  /** the site, a host name */
  domain: string;
  /** the profile to keep signed in (made when missing) */
  profile_name: string;
  /** other sites the sign-in may pass through (at most 20); an update replaces the list */
  allowed_domains?: string[] | undefined;
  /** sign in again after a failed health check, when it can (default true) */
  auto_reauth?: boolean | undefined;
  /** where its values come from: {name}, {provider, path} or {provider, auto: true} */
  credential?:
    | {
        /** a credential of the project, by name */
        name: string;
      }
    | {
        /** a credential provider, by name or id */
        provider: string;
        /** the item, as "<vault>/<item>" */
        path: string;
      }
    | {
        /** a credential provider, by name or id */
        provider: string;
        /** the provider's first item for the site */
        auto: true;
      }
    | undefined;
  /** seconds between health checks (300–86400, default 3600) */
  health_check_interval?: number | undefined;
  /** check the profile periodically (default true) */
  health_checks?: boolean | undefined;
  /** where sign-ins start (else https://<domain>/); "" clears it on update */
  login_url?: string | undefined;
  /** a proxy of the project its browsers use, {id} or {name} */
  proxy?:
    | {
        /** the proxy's id */
        id: string;
      }
    | {
        /** the proxy's name */
        name: string;
      }
    | undefined;
  /** record its flows' browsers (default false) */
  record_session?: boolean | undefined;
  /** keep values typed in a flow for the next (default true; one-time codes never) */
  save_credentials?: boolean | undefined;
}

/** What `auth.connections.delete` takes: its path parameters. */
export interface DeleteAuthConnectionInput {
  /** auth connection id */
  id: string;
}

/** What `auth.connections.events` takes: its path parameters. */
export interface FollowAuthConnectionInput {
  /** auth connection id */
  id: string;
}

/** What `auth.connections.events` answers. */
export type FollowAuthConnectionResult = EventStream<
  | {
      /** the flow changed */
      event: 'managed_auth_state';
      /** when */
      timestamp: string;
      /** how the flow stands */
      flow_status: 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'EXPIRED' | 'CANCELED';
      /** what it is doing */
      flow_step:
        | 'DISCOVERING'
        | 'AWAITING_INPUT'
        | 'AWAITING_EXTERNAL_ACTION'
        | 'SUBMITTING'
        | 'COMPLETED';
      /** LOGIN (a caller started it) or REAUTH (the service, after a failed health check) */
      flow_type?: 'LOGIN' | 'REAUTH' | null | undefined;
      /** when it expires unless it ends first */
      flow_expires_at?: string | null | undefined;
      /** where a person finishes the sign-in: the flow browser's live view, with control */
      hosted_url?: string | null | undefined;
      /** a read-only live view of the flow browser */
      live_view_url?: string | null | undefined;
      /** the browser the flow runs in */
      browser_session_id?: string | null | undefined;
      /** what the flow asks for (AWAITING_INPUT): submit their values by id */
      fields?: AuthField[] | null | undefined;
      /** the same fields as the page shows them */
      discovered_fields?: DiscoveredField[] | null | undefined;
      /** what a person must do at hosted_url (AWAITING_EXTERNAL_ACTION) */
      external_action_message?: string | null | undefined;
      /** why it failed: credentials_invalid, site_unreachable, no_login_form, not_signed_in, domain_not_allowed, browser_failed */
      error_code?: string | null | undefined;
      /** why it failed, in words */
      error_message?: string | null | undefined;
      /** the site's own error message, when it showed one */
      website_error?: string | null | undefined;
      /** the page the last successful sign-in ended on */
      post_login_url?: string | undefined;
    }
  | {
      /** the stream cannot go on */
      event: 'error';
      /** when */
      timestamp: string;
      /** what went wrong */
      error: {
        /** an error code */
        code: string;
        /** what went wrong */
        message: string;
      };
    }
  | {
      /** nothing changed; the stream is alive */
      event: 'sse_heartbeat';
      /** when */
      timestamp: string;
    }
>;

/** What `auth.connections.get` takes: its path parameters. */
export interface GetAuthConnectionInput {
  /** auth connection id */
  id: string;
}

/** What `auth.connections.list` takes: its query parameters. */
export interface ListAuthConnectionsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only connections for this site */
  domain?: string | undefined;
  /** only connections of this profile */
  profile_name?: string | undefined;
  /** only connections whose site or profile contains this, or whose id it is */
  query?: string | undefined;
}

/** What `auth.connections.login` takes: its path parameters, body fields, side by side. */
export interface LoginAuthConnectionInput {
  /** auth connection id */
  id: string;
  /** a proxy for this flow's browser, instead of the connection's */
  proxy?:
    | {
        /** the proxy's id */
        id: string;
      }
    | {
        /** the proxy's name */
        name: string;
      }
    | undefined;
  /** record this flow's browser, whatever the connection says */
  record_session?: boolean | undefined;
}

/** What `auth.connections.submit` takes: its path parameters, body fields, side by side. */
export interface SubmitAuthConnectionInput {
  /** auth connection id */
  id: string;
  /** values by the ids of the flow’s `fields` */
  field_values?: { [key: string]: string } | undefined;
  /** values by the names of its `discovered_fields` (the older shape) */
  fields?: { [key: string]: string } | undefined;
}

/** What `auth.connections.timeline` takes: its path parameters, query parameters, side by side. */
export interface AuthConnectionTimelineInput {
  /** auth connection id */
  id: string;
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only entries of this kind */
  type?: 'login' | 'reauth' | 'health_check' | undefined;
}

/** What `auth.connections.update` takes: its path parameters, body fields, side by side. */
export interface UpdateAuthConnectionInput {
  /** auth connection id */
  id: string;
  /** other sites the sign-in may pass through (at most 20); an update replaces the list */
  allowed_domains?: string[] | undefined;
  /** sign in again after a failed health check, when it can (default true) */
  auto_reauth?: boolean | undefined;
  /** where its values come from: {name}, {provider, path} or {provider, auto: true} */
  credential?:
    | {
        /** a credential of the project, by name */
        name: string;
      }
    | {
        /** a credential provider, by name or id */
        provider: string;
        /** the item, as "<vault>/<item>" */
        path: string;
      }
    | {
        /** a credential provider, by name or id */
        provider: string;
        /** the provider's first item for the site */
        auto: true;
      }
    | undefined;
  /** seconds between health checks (300–86400, default 3600) */
  health_check_interval?: number | undefined;
  /** check the profile periodically (default true) */
  health_checks?: boolean | undefined;
  /** where sign-ins start (else https://<domain>/); "" clears it on update */
  login_url?: string | undefined;
  /** a proxy of the project its browsers use, {id} or {name} */
  proxy?:
    | {
        /** the proxy's id */
        id: string;
      }
    | {
        /** the proxy's name */
        name: string;
      }
    | undefined;
  /** record its flows' browsers (default false) */
  record_session?: boolean | undefined;
  /** keep values typed in a flow for the next (default true; one-time codes never) */
  save_credentials?: boolean | undefined;
}

/** What `auth.context.get` takes: nothing. */
export type GetAuthContextInput = Record<never, never>;

// Functions

// auth.connections

/**
 * Create an auth connection: a profile (made when missing) to sign in to a site and keep signed in.
 *
 * `POST /auth/connections`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `auth.connections.create`
 */
export const createAuthConnection: (
  core: Core,
  input: CreateAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<AuthConnection> = /* @__PURE__ */ defineCall<
  CreateAuthConnectionInput,
  AuthConnection
>({
  name: 'auth.connections.create',
  method: 'POST',
  path: '/auth/connections',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * Delete an auth connection; a flow in progress is canceled (the profile stays).
 *
 * `DELETE /auth/connections/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `auth.connections.delete`
 */
export const deleteAuthConnection: (
  core: Core,
  input: DeleteAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteAuthConnectionInput, undefined>({
  name: 'auth.connections.delete',
  method: 'DELETE',
  path: '/auth/connections/{id}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Follow a connection's sign-in flow: its states as they change, until it ends.
 *
 * `GET /auth/connections/{id}/events`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `auth.connections.events`
 */
export const followAuthConnection: (
  core: Core,
  input: FollowAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<FollowAuthConnectionResult> = /* @__PURE__ */ defineCall<
  FollowAuthConnectionInput,
  FollowAuthConnectionResult
>(
  {
    name: 'auth.connections.events',
    method: 'GET',
    path: '/auth/connections/{id}/events',
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

/**
 * Get an auth connection, with the state of its current flow.
 *
 * `GET /auth/connections/{id}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `auth.connections.get`
 */
export const getAuthConnection: (
  core: Core,
  input: GetAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<AuthConnection> = /* @__PURE__ */ defineCall<
  GetAuthConnectionInput,
  AuthConnection
>({
  name: 'auth.connections.get',
  method: 'GET',
  path: '/auth/connections/{id}',
  responses: { 200: 'json' },
});

/**
 * List the auth connections, with their flows.
 *
 * `GET /auth/connections`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `auth.connections.list`
 */
export const listAuthConnections: (
  core: Core,
  input?: ListAuthConnectionsInput,
  options?: CallOptions,
) => PagePromise<AuthConnection> = /* @__PURE__ */ defineListCall<
  ListAuthConnectionsInput,
  AuthConnection
>({
  name: 'auth.connections.list',
  method: 'GET',
  path: '/auth/connections',
  query: ['offset', 'limit', 'domain', 'profile_name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Start a sign-in flow in a browser of the profile; follow its events, submit what it asks for.
 *
 * `POST /auth/connections/{id}/login`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503.
 * `auth.connections.login`
 */
export const loginAuthConnection: (
  core: Core,
  input: LoginAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<LoginResponse> = /* @__PURE__ */ defineCall<
  LoginAuthConnectionInput,
  LoginResponse
>({
  name: 'auth.connections.login',
  method: 'POST',
  path: '/auth/connections/{id}/login',
  body: 'json',
  bodyOptional: true,
  responses: { 200: 'json' },
  write: true,
});

/**
 * Give a sign-in flow the values it asked for (AWAITING_INPUT).
 *
 * `POST /auth/connections/{id}/submit`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `auth.connections.submit`
 */
export const submitAuthConnection: (
  core: Core,
  input: SubmitAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<SubmitResponse> = /* @__PURE__ */ defineCall<
  SubmitAuthConnectionInput,
  SubmitResponse
>({
  name: 'auth.connections.submit',
  method: 'POST',
  path: '/auth/connections/{id}/submit',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * List a connection's logins, re-authentications and health checks, newest first.
 *
 * `GET /auth/connections/{id}/timeline`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `auth.connections.timeline`
 */
export const authConnectionTimeline: (
  core: Core,
  input: AuthConnectionTimelineInput,
  options?: CallOptions,
) => PagePromise<AuthTimelineEvent> = /* @__PURE__ */ defineListCall<
  AuthConnectionTimelineInput,
  AuthTimelineEvent
>({
  name: 'auth.connections.timeline',
  method: 'GET',
  path: '/auth/connections/{id}/timeline',
  query: ['offset', 'limit', 'type'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Change an auth connection's settings (credential, login URL, health checks, …).
 *
 * `PATCH /auth/connections/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
 * `auth.connections.update`
 */
export const updateAuthConnection: (
  core: Core,
  input: UpdateAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<AuthConnection> = /* @__PURE__ */ defineCall<
  UpdateAuthConnectionInput,
  AuthConnection
>({
  name: 'auth.connections.update',
  method: 'PATCH',
  path: '/auth/connections/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

// auth.context

/**
 * Get the caller's context: its credential, the project it is limited to, the project this call acts in, and whether it may only read.
 *
 * `GET /auth/context`: any token, read-only ones too.
 * Errors: 401, 403, 429, 500, 503.
 * `auth.context.get`
 */
export const getAuthContext: (
  core: Core,
  input?: GetAuthContextInput,
  options?: CallOptions,
) => CallPromise<AuthContext> = /* @__PURE__ */ defineCall<GetAuthContextInput, AuthContext>({
  name: 'auth.context.get',
  method: 'GET',
  path: '/auth/context',
  responses: { 200: 'json' },
});
