import * as samples from '../../test-support/samples.js';
import { type MethodCase, noContent, ok } from './method-case.js';

const authContext = {
  authentication: {
    method: 'api_key',
    source: 'api_key',
    credential_id: 'key_1',
    credential_name: 'ci',
    auth_strategy: 'api_key',
  },
  authorization: {
    credential_scope: { project_id: 'proj_1' },
    effective_scope: { project_id: 'proj_1' },
    read_only: true,
  },
  organization: { id: 'default' },
  principal: { id: 'key_1', type: 'api_key' },
};

/** One realistic call of every operation of `auth`. */
export const cases: Record<string, MethodCase> = {
  'auth.connections.create': {
    input: { domain: 'shop.example.com', profile_name: 'agent', credential: { name: 'shop' } },
    method: 'POST',
    url: '/auth/connections',
    body: { domain: 'shop.example.com', profile_name: 'agent', credential: { name: 'shop' } },
    respond: { status: 201, json: samples.authConnection },
    result: samples.authConnection,
  },
  'auth.connections.list': {
    input: { profile_name: 'agent' },
    method: 'GET',
    url: '/auth/connections?profile_name=agent',
    respond: ok([samples.authConnection]),
    result: [samples.authConnection],
  },
  'auth.connections.get': {
    input: { id: 'auth_1' },
    method: 'GET',
    url: '/auth/connections/auth_1',
    respond: ok(samples.authConnection),
    result: samples.authConnection,
  },
  'auth.connections.update': {
    input: { id: 'auth_1', health_check_interval: 600 },
    method: 'PATCH',
    url: '/auth/connections/auth_1',
    body: { health_check_interval: 600 },
    respond: ok(samples.authConnection),
    result: samples.authConnection,
  },
  'auth.connections.delete': {
    input: { id: 'auth_1' },
    method: 'DELETE',
    url: '/auth/connections/auth_1',
    respond: noContent,
    result: undefined,
  },
  'auth.connections.login': {
    input: { id: 'auth_1' },
    method: 'POST',
    url: '/auth/connections/auth_1/login',
    respond: ok({
      id: 'auth_1',
      flow_type: 'LOGIN',
      flow_expires_at: '2026-11-22T10:20:00.000Z',
      hosted_url: 'https://x/live?jwt=j',
    }),
    result: {
      id: 'auth_1',
      flow_type: 'LOGIN',
      flow_expires_at: '2026-11-22T10:20:00.000Z',
      hosted_url: 'https://x/live?jwt=j',
    },
  },
  'auth.connections.submit': {
    input: { id: 'auth_1', field_values: { password: 'p' } },
    method: 'POST',
    url: '/auth/connections/auth_1/submit',
    body: { field_values: { password: 'p' } },
    respond: ok({ accepted: true }),
    result: { accepted: true },
  },
  'auth.context.get': {
    method: 'GET',
    url: '/auth/context',
    respond: ok(authContext),
    result: authContext,
  },
  'auth.connections.timeline': {
    input: { id: 'auth_1', type: 'login' },
    method: 'GET',
    url: '/auth/connections/auth_1/timeline?type=login',
    respond: ok([samples.authTimelineEvent]),
    result: [samples.authTimelineEvent],
  },
};
