import { defineOperation } from '../catalog/operation.js';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { IdOrNameSchema, IdSchema } from '../common/scalars.js';
import {
  BrowserSessionListSchema,
  BrowserSessionSchema,
  ListBrowsersQuerySchema,
} from './browser-session.js';
import { CreateBrowserBodySchema } from './create-browser.js';
import { UpdateBrowserBodySchema } from './update-browser.js';

/** The `{id}` of a path under a browser session, described once for every such path. */
export const SessionIdParamSchema = /* @__PURE__ */ described(IdSchema, 'browser session id');

/** Path parameters of an operation on one browser session. */
export const BrowserPathSchema = /* @__PURE__ */ requestObject({ id: SessionIdParamSchema });

/**
 * Path parameters of get, update and delete: the session's id, or the name of a running browser
 * (the id is tried first).
 */
export const BrowserIdOrNamePathSchema = /* @__PURE__ */ requestObject({
  id: /* @__PURE__ */ described(
    IdOrNameSchema,
    'browser session id, or the name of a running browser',
  ),
});

/** POST /browsers: starts a browser session. */
export const createBrowserOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.create',
  clusterRoute: 'place',
  summary: 'Create a browser session.',
  method: 'POST',
  path: '/browsers',
  body: { encoding: 'json', schema: CreateBrowserBodySchema },
  responses: { 201: { kind: 'json', schema: BrowserSessionSchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** GET /browsers: one page of the sessions (by `status`: active, deleted or all), oldest first. */
export const listBrowsersOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.list',
  clusterRoute: 'here',
  summary: 'List the browser sessions (the active ones unless status says otherwise).',
  paginated: true,
  method: 'GET',
  path: '/browsers',
  query: ListBrowsersQuerySchema,
  responses: { 200: { kind: 'json', schema: BrowserSessionListSchema } },
  errorStatuses: [],
  access: 'read',
});

/** GET /browsers/{id}: one browser session. */
export const getBrowserOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.get',
  clusterRoute: 'session',
  summary: 'Get a browser session.',
  method: 'GET',
  path: '/browsers/{id}',
  pathParams: BrowserIdOrNamePathSchema,
  responses: { 200: { kind: 'json', schema: BrowserSessionSchema } },
  errorStatuses: [404],
  access: 'read',
});

/**
 * PATCH /browsers/{id}: changes a running browser: its name, tags, window size (applied live) and
 * idle time-out.
 */
export const updateBrowserOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.update',
  clusterRoute: 'session',
  summary: 'Update a running browser session (name, tags, viewport, proxy, time-out).',
  method: 'PATCH',
  path: '/browsers/{id}',
  pathParams: BrowserIdOrNamePathSchema,
  body: { encoding: 'json', schema: UpdateBrowserBodySchema },
  responses: { 200: { kind: 'json', schema: BrowserSessionSchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** DELETE /browsers/{id}: ends a browser session and everything running in it. */
export const deleteBrowserOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.delete',
  clusterRoute: 'session',
  summary: 'Delete a browser session.',
  method: 'DELETE',
  path: '/browsers/{id}',
  pathParams: BrowserIdOrNamePathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});
