import { defineOperation } from '../catalog/operation.js';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { IdSchema } from '../common/scalars.js';
import {
  CreateInvocationBodySchema,
  InvocationBrowsersSchema,
  InvocationEventSchema,
  InvocationListSchema,
  InvocationSchema,
  ListInvocationsQuerySchema,
  UpdateInvocationBodySchema,
} from './invocation.js';

/** Path parameters of an operation on one invocation. */
export const InvocationPathSchema = /* @__PURE__ */ requestObject({
  id: /* @__PURE__ */ described(IdSchema, 'invocation id'),
});

/**
 * POST /invocations: runs an action of a deployed app with a payload: 200 with the ended
 * invocation (sync, within 100 s), or 202 with the queued one (`async`).
 */
export const createInvocationOperation = /* @__PURE__ */ defineOperation({
  name: 'invocations.create',
  clusterRoute: 'invoke',
  summary: "Invoke an app's action: wait for its result, or queue it (async).",
  method: 'POST',
  path: '/invocations',
  body: { encoding: 'json', schema: CreateInvocationBodySchema },
  responses: {
    200: { kind: 'json', schema: InvocationSchema },
    202: { kind: 'json', schema: InvocationSchema },
  },
  errorStatuses: [404, 429],
  access: 'write',
});

/** GET /invocations/{id}/events: the code's console and the states, until it ends. */
export const followInvocationOperation = /* @__PURE__ */ defineOperation({
  name: 'invocations.events',
  clusterRoute: 'run',
  summary: "Follow an invocation: its code's console and its states, until it ends.",
  method: 'GET',
  path: '/invocations/{id}/events',
  pathParams: InvocationPathSchema,
  responses: { 200: { kind: 'event-stream', eventSchema: InvocationEventSchema } },
  errorStatuses: [404, 429],
  access: 'contents',
});

/** GET /invocations: one page of the invocations (by status, app, action), oldest first. */
export const listInvocationsOperation = /* @__PURE__ */ defineOperation({
  name: 'invocations.list',
  clusterRoute: 'here',
  summary: 'List the invocations.',
  paginated: true,
  method: 'GET',
  path: '/invocations',
  query: ListInvocationsQuerySchema,
  responses: { 200: { kind: 'json', schema: InvocationListSchema } },
  errorStatuses: [],
  access: 'read',
});

/** GET /invocations/{id}: one invocation. */
export const getInvocationOperation = /* @__PURE__ */ defineOperation({
  name: 'invocations.get',
  clusterRoute: 'run',
  summary: 'Get an invocation.',
  method: 'GET',
  path: '/invocations/{id}',
  pathParams: InvocationPathSchema,
  responses: { 200: { kind: 'json', schema: InvocationSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** PATCH /invocations/{id}: ends the invocation (its code stops) and deletes its browsers. */
export const updateInvocationOperation = /* @__PURE__ */ defineOperation({
  name: 'invocations.update',
  clusterRoute: 'run',
  summary:
    'End an invocation (succeeded, or failed to cancel it): its code stops, its browsers are deleted.',
  method: 'PATCH',
  path: '/invocations/{id}',
  pathParams: InvocationPathSchema,
  body: { encoding: 'json', schema: UpdateInvocationBodySchema },
  responses: { 200: { kind: 'json', schema: InvocationSchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** GET /invocations/{id}/browsers (4.5): the invocation's active browsers, oldest first. */
export const listInvocationBrowsersOperation = /* @__PURE__ */ defineOperation({
  name: 'invocations.listBrowsers',
  clusterRoute: 'run',
  summary: 'List the active browsers of an invocation.',
  specSection: '4.5',
  method: 'GET',
  path: '/invocations/{id}/browsers',
  pathParams: InvocationPathSchema,
  responses: { 200: { kind: 'json', schema: InvocationBrowsersSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** DELETE /invocations/{id}/browsers: ends every running browser of the invocation. */
export const deleteInvocationBrowsersOperation = /* @__PURE__ */ defineOperation({
  name: 'invocations.deleteBrowsers',
  clusterRoute: 'run',
  summary: 'Delete every running browser of an invocation.',
  method: 'DELETE',
  path: '/invocations/{id}/browsers',
  pathParams: InvocationPathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});
