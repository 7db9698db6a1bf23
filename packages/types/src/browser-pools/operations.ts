import { BrowserSessionSchema } from '../browsers/browser-session.js';
import { defineOperation } from '../catalog/operation.js';
import { acquireServerTimeMs } from '../catalog/server-time.js';
import { described } from '../common/describe.js';
import { NamedListQuerySchema } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { IdOrNameSchema } from '../common/scalars.js';
import { BrowserPoolListSchema, BrowserPoolSchema } from './browser-pool.js';
import {
  AcquireBrowserBodySchema,
  CreateBrowserPoolBodySchema,
  DeleteBrowserPoolQuerySchema,
  ReleaseBrowserBodySchema,
  UpdateBrowserPoolBodySchema,
} from './pool-requests.js';

/** Path parameters of an operation on one pool, named by id or by name. */
export const BrowserPoolPathSchema = /* @__PURE__ */ requestObject({
  id_or_name: /* @__PURE__ */ described(IdOrNameSchema, 'pool id or name'),
});

/** POST /browser_pools: declares a pool and starts filling it. */
export const createBrowserPoolOperation = /* @__PURE__ */ defineOperation({
  name: 'browserPools.create',
  clusterRoute: 'here',
  summary: 'Create a browser pool.',
  method: 'POST',
  path: '/browser_pools',
  body: { encoding: 'json', schema: CreateBrowserPoolBodySchema },
  responses: { 201: { kind: 'json', schema: BrowserPoolSchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** GET /browser_pools: one page of the pools (by `name` or `query`), oldest first. */
export const listBrowserPoolsOperation = /* @__PURE__ */ defineOperation({
  name: 'browserPools.list',
  clusterRoute: 'gather',
  summary: 'List the browser pools.',
  paginated: true,
  method: 'GET',
  path: '/browser_pools',
  query: NamedListQuerySchema,
  responses: { 200: { kind: 'json', schema: BrowserPoolListSchema } },
  errorStatuses: [],
  access: 'read',
});

/** GET /browser_pools/{id_or_name} (4.3): one pool with its live counts. */
export const getBrowserPoolOperation = /* @__PURE__ */ defineOperation({
  name: 'browserPools.get',
  clusterRoute: 'pool',
  summary: 'Get a browser pool by id or name.',
  specSection: '4.3',
  method: 'GET',
  path: '/browser_pools/{id_or_name}',
  pathParams: BrowserPoolPathSchema,
  responses: { 200: { kind: 'json', schema: BrowserPoolSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** PATCH /browser_pools/{id_or_name}: changes the configuration; idle browsers are replaced. */
export const updateBrowserPoolOperation = /* @__PURE__ */ defineOperation({
  name: 'browserPools.update',
  clusterRoute: 'pool',
  summary: 'Update a browser pool.',
  method: 'PATCH',
  path: '/browser_pools/{id_or_name}',
  pathParams: BrowserPoolPathSchema,
  body: { encoding: 'json', schema: UpdateBrowserPoolBodySchema },
  responses: { 200: { kind: 'json', schema: BrowserPoolSchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** DELETE /browser_pools/{id_or_name}: 409 while browsers are acquired, unless `force`. */
export const deleteBrowserPoolOperation = /* @__PURE__ */ defineOperation({
  name: 'browserPools.delete',
  clusterRoute: 'pool',
  summary: 'Delete a browser pool.',
  method: 'DELETE',
  path: '/browser_pools/{id_or_name}',
  pathParams: BrowserPoolPathSchema,
  query: DeleteBrowserPoolQuerySchema,
  // Clients of the best-known service of this kind send `{"force": true}` as a body.
  acceptsQueryInBody: true,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** POST /browser_pools/{id_or_name}/acquire: a browser, or 204 when none came free in time. */
export const acquireBrowserOperation = /* @__PURE__ */ defineOperation({
  name: 'browserPools.acquire',
  clusterRoute: 'here',
  summary: 'Acquire a browser from a pool, waiting up to acquire_timeout_seconds.',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/acquire',
  pathParams: BrowserPoolPathSchema,
  body: { encoding: 'json', schema: AcquireBrowserBodySchema },
  responses: { 200: { kind: 'json', schema: BrowserSessionSchema }, 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
  serverTimeMs: acquireServerTimeMs,
});

/** POST /browser_pools/{id_or_name}/release: gives an acquired browser back. */
export const releaseBrowserOperation = /* @__PURE__ */ defineOperation({
  name: 'browserPools.release',
  clusterRoute: 'pool',
  summary: 'Release an acquired browser back to its pool.',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/release',
  pathParams: BrowserPoolPathSchema,
  body: { encoding: 'json', schema: ReleaseBrowserBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** POST /browser_pools/{id_or_name}/flush: replaces every idle browser with a fresh one. */
export const flushBrowserPoolOperation = /* @__PURE__ */ defineOperation({
  name: 'browserPools.flush',
  clusterRoute: 'pool',
  summary: 'Discard the idle browsers of a pool so fresh ones replace them.',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/flush',
  pathParams: BrowserPoolPathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});
