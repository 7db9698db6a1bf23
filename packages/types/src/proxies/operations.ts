import { defineOperation } from '../catalog/operation.js';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { IdSchema } from '../common/scalars.js';
import {
  CreateProxyBodySchema,
  DeleteProxyQuerySchema,
  ListProxiesQuerySchema,
  ProxyListSchema,
  ProxySchema,
  UpdateProxyBodySchema,
} from './proxy.js';

/** Path parameters of an operation on one proxy. */
export const ProxyPathSchema = /* @__PURE__ */ requestObject({
  id: /* @__PURE__ */ described(IdSchema, 'proxy id'),
});

/** POST /proxies: a proxy browsers can be created with (`proxy_id`). */
export const createProxyOperation = /* @__PURE__ */ defineOperation({
  name: 'proxies.create',
  clusterRoute: 'here',
  summary: 'Create a proxy configuration (type custom: a proxy the operator provides).',
  method: 'POST',
  path: '/proxies',
  body: { encoding: 'json', schema: CreateProxyBodySchema },
  responses: { 201: { kind: 'json', schema: ProxySchema } },
  errorStatuses: [409],
  access: 'write',
});

/** GET /proxies: one page of the proxies, oldest first. */
export const listProxiesOperation = /* @__PURE__ */ defineOperation({
  name: 'proxies.list',
  clusterRoute: 'here',
  summary: 'List the proxies.',
  paginated: true,
  method: 'GET',
  path: '/proxies',
  query: ListProxiesQuerySchema,
  responses: { 200: { kind: 'json', schema: ProxyListSchema } },
  errorStatuses: [],
  access: 'read',
});

/** GET /proxies/{id}: one proxy. */
export const getProxyOperation = /* @__PURE__ */ defineOperation({
  name: 'proxies.get',
  clusterRoute: 'here',
  summary: 'Get a proxy.',
  method: 'GET',
  path: '/proxies/{id}',
  pathParams: ProxyPathSchema,
  responses: { 200: { kind: 'json', schema: ProxySchema } },
  errorStatuses: [404],
  access: 'read',
});

/** PATCH /proxies/{id}: changes a proxy; browsers already routed through it keep their route. */
export const updateProxyOperation = /* @__PURE__ */ defineOperation({
  name: 'proxies.update',
  clusterRoute: 'here',
  summary: 'Change a proxy (browsers started before keep the settings they started with).',
  method: 'PATCH',
  path: '/proxies/{id}',
  pathParams: ProxyPathSchema,
  body: { encoding: 'json', schema: UpdateProxyBodySchema },
  responses: { 200: { kind: 'json', schema: ProxySchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** DELETE /proxies/{id}: removes a proxy; 409 while a browser uses it unless `force=true`. */
export const deleteProxyOperation = /* @__PURE__ */ defineOperation({
  name: 'proxies.delete',
  clusterRoute: 'here',
  summary: 'Delete a proxy (409 while a browser uses it, unless force=true; or a pool names it).',
  method: 'DELETE',
  path: '/proxies/{id}',
  pathParams: ProxyPathSchema,
  query: DeleteProxyQuerySchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** POST /proxies/{id}/check: reaches a site through the proxy and records what it found. */
export const checkProxyOperation = /* @__PURE__ */ defineOperation({
  name: 'proxies.check',
  clusterRoute: 'here',
  summary: 'Check a proxy: reach a site through it, and record its status and exit address.',
  method: 'POST',
  path: '/proxies/{id}/check',
  pathParams: ProxyPathSchema,
  responses: { 200: { kind: 'json', schema: ProxySchema } },
  errorStatuses: [404],
  access: 'write',
});
