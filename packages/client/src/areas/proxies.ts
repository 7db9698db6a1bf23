/**
 * The `proxies` area: its records, each of its operations' input and answer as named types
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

// Records

export interface ProxyConfig {
  /** the proxy's id */
  id: string;
  /** the proxy's unique name */
  name?: string | undefined;
  /** kind of proxy (custom on a self-hosted server) */
  type: 'custom' | 'datacenter' | 'isp' | 'residential' | 'mobile';
  /** http, or https (TLS to the proxy) */
  protocol: 'http' | 'https';
  /** where the proxy is and who to say you are */
  config: {
    /** host name or IP address */
    host: string;
    /** port */
    port: number;
    /** username the proxy asks for */
    username?: string | undefined;
    /** whether a password is set (it is never shown) */
    has_password: boolean;
  };
  /** hosts reached directly, not through the proxy */
  bypass_hosts?: string[] | undefined;
  /** available or unavailable, by the last check */
  status?: 'available' | 'unavailable' | undefined;
  /** when it was last checked (ISO 8601 UTC) */
  last_checked?: string | undefined;
  /** the address sites saw through it at the last check */
  ip_address?: string | undefined;
}

// Inputs and answers

/** What `proxies.check` takes: its path parameters. */
export interface CheckProxyInput {
  /** proxy id */
  id: string;
}

/** What `proxies.create` takes: its body fields. */
export interface CreateProxyInput {
  /** custom (a proxy you run) */
  type: 'custom' | 'datacenter' | 'isp' | 'residential' | 'mobile';
  /** unique name, [A-Za-z0-9._-], 1–255 characters */
  name?: string | undefined;
  /** http, or https (TLS to the proxy), default http */
  protocol?: 'http' | 'https' | undefined;
  /** where the proxy is and its credentials */
  config: {
    /** host name or IP address, without scheme or port */
    host: string;
    /** port, 1–65535 */
    port: number;
    /** username the proxy asks for */
    username?: string | undefined;
    /** password the proxy asks for; write-only */
    password?: string | undefined;
  };
  /** hosts reached directly (example.com, *.example.com, an IP), at most 100 */
  bypass_hosts?: string[] | undefined;
}

/** What `proxies.delete` takes: its path parameters, query parameters, side by side. */
export interface DeleteProxyInput {
  /** proxy id */
  id: string;
  /** delete even while browsers use it (they keep their route), default false */
  force?: boolean | ('true' | 'false') | undefined;
}

/** What `proxies.get` takes: its path parameters. */
export interface GetProxyInput {
  /** proxy id */
  id: string;
}

/** What `proxies.list` takes: its query parameters. */
export interface ListProxiesInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
}

/** What `proxies.update` takes: its path parameters, body fields, side by side. */
export interface UpdateProxyInput {
  /** proxy id */
  id: string;
  /** new unique name */
  name?: string | undefined;
  /** http or https */
  protocol?: 'http' | 'https' | undefined;
  /** the fields of the configuration to change */
  config?:
    | {
        /** host name or IP address */
        host?: string | undefined;
        /** port, 1–65535 */
        port?: number | undefined;
        /** username; null removes it */
        username?: string | null | undefined;
        /** password; null removes it; write-only */
        password?: string | null | undefined;
      }
    | undefined;
  /** hosts reached directly, at most 100 */
  bypass_hosts?: string[] | undefined;
}

// Functions

// proxies

/**
 * Check a proxy: reach a site through it, and record its status and exit address.
 *
 * `POST /proxies/{id}/check`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
 * `proxies.check`
 */
export const checkProxy: (
  core: Core,
  input: CheckProxyInput,
  options?: CallOptions,
) => CallPromise<ProxyConfig> = /* @__PURE__ */ defineCall<CheckProxyInput, ProxyConfig>({
  name: 'proxies.check',
  method: 'POST',
  path: '/proxies/{id}/check',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Create a proxy configuration (type custom: a proxy the operator provides).
 *
 * `POST /proxies`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `proxies.create`
 */
export const createProxy: (
  core: Core,
  input: CreateProxyInput,
  options?: CallOptions,
) => CallPromise<ProxyConfig> = /* @__PURE__ */ defineCall<CreateProxyInput, ProxyConfig>({
  name: 'proxies.create',
  method: 'POST',
  path: '/proxies',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * Delete a proxy (409 while a browser uses it, unless force=true; or a pool names it).
 *
 * `DELETE /proxies/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `proxies.delete`
 */
export const deleteProxy: (
  core: Core,
  input: DeleteProxyInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteProxyInput, undefined>({
  name: 'proxies.delete',
  method: 'DELETE',
  path: '/proxies/{id}',
  query: ['force'],
  responses: { 204: 'none' },
  write: true,
});

/**
 * Get a proxy.
 *
 * `GET /proxies/{id}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `proxies.get`
 */
export const getProxy: (
  core: Core,
  input: GetProxyInput,
  options?: CallOptions,
) => CallPromise<ProxyConfig> = /* @__PURE__ */ defineCall<GetProxyInput, ProxyConfig>({
  name: 'proxies.get',
  method: 'GET',
  path: '/proxies/{id}',
  responses: { 200: 'json' },
});

/**
 * List the proxies.
 *
 * `GET /proxies`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `proxies.list`
 */
export const listProxies: (
  core: Core,
  input?: ListProxiesInput,
  options?: CallOptions,
) => PagePromise<ProxyConfig> = /* @__PURE__ */ defineListCall<ListProxiesInput, ProxyConfig>({
  name: 'proxies.list',
  method: 'GET',
  path: '/proxies',
  query: ['offset', 'limit'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Change a proxy (browsers started before keep the settings they started with).
 *
 * `PATCH /proxies/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `proxies.update`
 */
export const updateProxy: (
  core: Core,
  input: UpdateProxyInput,
  options?: CallOptions,
) => CallPromise<ProxyConfig> = /* @__PURE__ */ defineCall<UpdateProxyInput, ProxyConfig>({
  name: 'proxies.update',
  method: 'PATCH',
  path: '/proxies/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});
