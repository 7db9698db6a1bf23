import { defineOperation } from '../catalog/operation.js';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { IdSchema } from '../common/scalars.js';
import {
  AuthConnectionListSchema,
  AuthConnectionSchema,
  AuthEventSchema,
  AuthTimelineQuerySchema,
  AuthTimelineSchema,
  CreateAuthConnectionBodySchema,
  ListAuthConnectionsQuerySchema,
  LoginBodySchema,
  LoginResponseSchema,
  SubmitBodySchema,
  SubmitResponseSchema,
  UpdateAuthConnectionBodySchema,
} from './auth-connection.js';
import { AuthContextSchema } from './auth-context.js';

/** Path parameters of an operation on one auth connection. */
export const AuthConnectionPathSchema = /* @__PURE__ */ requestObject({
  id: /* @__PURE__ */ described(IdSchema, 'auth connection id'),
});

/** POST /auth/connections: a profile to keep signed in to a site. */
export const createAuthConnectionOperation = /* @__PURE__ */ defineOperation({
  name: 'auth.connections.create',
  clusterRoute: 'here',
  summary:
    'Create an auth connection: a profile (made when missing) to sign in to a site and keep signed in.',
  method: 'POST',
  path: '/auth/connections',
  body: { encoding: 'json', schema: CreateAuthConnectionBodySchema },
  responses: { 201: { kind: 'json', schema: AuthConnectionSchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** GET /auth/connections: one page of the connections, oldest first. */
export const listAuthConnectionsOperation = /* @__PURE__ */ defineOperation({
  name: 'auth.connections.list',
  clusterRoute: 'here',
  summary: 'List the auth connections, with their flows.',
  paginated: true,
  method: 'GET',
  path: '/auth/connections',
  query: ListAuthConnectionsQuerySchema,
  responses: { 200: { kind: 'json', schema: AuthConnectionListSchema } },
  errorStatuses: [],
  access: 'read',
});

/** GET /auth/connections/{id}: one connection and its current flow. */
export const getAuthConnectionOperation = /* @__PURE__ */ defineOperation({
  name: 'auth.connections.get',
  clusterRoute: 'here',
  summary: 'Get an auth connection, with the state of its current flow.',
  method: 'GET',
  path: '/auth/connections/{id}',
  pathParams: AuthConnectionPathSchema,
  responses: { 200: { kind: 'json', schema: AuthConnectionSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** PATCH /auth/connections/{id}: the settings given change. */
export const updateAuthConnectionOperation = /* @__PURE__ */ defineOperation({
  name: 'auth.connections.update',
  clusterRoute: 'here',
  summary: "Change an auth connection's settings (credential, login URL, health checks, …).",
  method: 'PATCH',
  path: '/auth/connections/{id}',
  pathParams: AuthConnectionPathSchema,
  body: { encoding: 'json', schema: UpdateAuthConnectionBodySchema },
  responses: { 200: { kind: 'json', schema: AuthConnectionSchema } },
  errorStatuses: [404],
  access: 'write',
});

/** DELETE /auth/connections/{id}: gone, its flow canceled (the profile stays). */
export const deleteAuthConnectionOperation = /* @__PURE__ */ defineOperation({
  name: 'auth.connections.delete',
  clusterRoute: 'here',
  summary: 'Delete an auth connection; a flow in progress is canceled (the profile stays).',
  method: 'DELETE',
  path: '/auth/connections/{id}',
  pathParams: AuthConnectionPathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});

/** POST /auth/connections/{id}/login: a sign-in flow starts in a browser of the profile. */
export const loginAuthConnectionOperation = /* @__PURE__ */ defineOperation({
  name: 'auth.connections.login',
  clusterRoute: 'here',
  summary:
    'Start a sign-in flow in a browser of the profile; follow its events, submit what it asks for.',
  method: 'POST',
  path: '/auth/connections/{id}/login',
  pathParams: AuthConnectionPathSchema,
  body: { encoding: 'json', schema: LoginBodySchema },
  responses: { 200: { kind: 'json', schema: LoginResponseSchema } },
  errorStatuses: [404, 409, 429, 502],
  access: 'write',
});

/** POST /auth/connections/{id}/submit: the values a flow waits for. */
export const submitAuthConnectionOperation = /* @__PURE__ */ defineOperation({
  name: 'auth.connections.submit',
  clusterRoute: 'here',
  summary: 'Give a sign-in flow the values it asked for (AWAITING_INPUT).',
  method: 'POST',
  path: '/auth/connections/{id}/submit',
  pathParams: AuthConnectionPathSchema,
  body: { encoding: 'json', schema: SubmitBodySchema },
  responses: { 200: { kind: 'json', schema: SubmitResponseSchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** GET /auth/connections/{id}/events: the flow's states as they change, until it ends. */
export const followAuthConnectionOperation = /* @__PURE__ */ defineOperation({
  name: 'auth.connections.events',
  clusterRoute: 'here',
  summary: "Follow a connection's sign-in flow: its states as they change, until it ends.",
  method: 'GET',
  path: '/auth/connections/{id}/events',
  pathParams: AuthConnectionPathSchema,
  responses: { 200: { kind: 'event-stream', eventSchema: AuthEventSchema } },
  errorStatuses: [404, 429],
  access: 'contents',
});

/** GET /auth/connections/{id}/timeline: logins, re-authentications and health checks. */
export const authConnectionTimelineOperation = /* @__PURE__ */ defineOperation({
  name: 'auth.connections.timeline',
  clusterRoute: 'here',
  summary: "List a connection's logins, re-authentications and health checks, newest first.",
  paginated: true,
  method: 'GET',
  path: '/auth/connections/{id}/timeline',
  pathParams: AuthConnectionPathSchema,
  query: AuthTimelineQuerySchema,
  responses: { 200: { kind: 'json', schema: AuthTimelineSchema } },
  errorStatuses: [404],
  access: 'read',
});

/**
 * GET /auth/context: who the caller is, what its credential reaches and the project this call
 * acts in. It acts in a project, so X-Kernel-Project-Id applies as it does to any call.
 */
export const getAuthContextOperation = /* @__PURE__ */ defineOperation({
  name: 'auth.context.get',
  clusterRoute: 'here',
  summary:
    "Get the caller's context: its credential, the project it is limited to, the project this call acts in, and whether it may only read.",
  method: 'GET',
  path: '/auth/context',
  responses: { 200: { kind: 'json', schema: AuthContextSchema } },
  errorStatuses: [],
  access: 'read',
});
