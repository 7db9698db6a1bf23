import * as samples from '../../test-support/samples.js';
import { type MethodCase, noContent, ok } from './method-case.js';

/** One realistic call of every operation of `credentials`. */
export const cases: Record<string, MethodCase> = {
  'credentials.create': {
    input: {
      name: 'shop-login',
      domain: 'shop.example.com',
      values: { username: 'a', password: 'p' },
    },
    method: 'POST',
    url: '/credentials',
    body: {
      name: 'shop-login',
      domain: 'shop.example.com',
      values: { username: 'a', password: 'p' },
    },
    respond: { status: 201, json: samples.credential },
    result: samples.credential,
  },
  'credentials.list': {
    input: { domain: 'shop.example.com', query: 'shop' },
    method: 'GET',
    url: '/credentials?domain=shop.example.com&query=shop',
    respond: ok([samples.credential]),
    result: [samples.credential],
  },
  'credentials.get': {
    input: { id_or_name: 'shop-login' },
    method: 'GET',
    url: '/credentials/shop-login',
    respond: ok(samples.credential),
    result: samples.credential,
  },
  'credentials.update': {
    input: {
      id_or_name: 'cred_1',
      values: { otp: 'x' },
      remove_value_keys: ['username'],
      sso_provider: null,
    },
    method: 'PATCH',
    url: '/credentials/cred_1',
    body: { values: { otp: 'x' }, remove_value_keys: ['username'], sso_provider: null },
    respond: ok(samples.credential),
    result: samples.credential,
  },
  'credentials.delete': {
    input: { id_or_name: 'cred_1' },
    method: 'DELETE',
    url: '/credentials/cred_1',
    respond: noContent,
    result: undefined,
  },
  'credentials.totpCode': {
    input: { id_or_name: 'cred_1' },
    method: 'GET',
    url: '/credentials/cred_1/totp-code',
    respond: ok({ code: '287082', expires_at: '2026-11-22T10:00:30.000Z' }),
    result: { code: '287082', expires_at: '2026-11-22T10:00:30.000Z' },
  },
  'credentialProviders.create': {
    input: {
      name: 'team-1p',
      provider_type: 'onepassword',
      token: 'tok',
      url: 'https://connect.example.com',
    },
    method: 'POST',
    url: '/org/credential_providers',
    body: {
      name: 'team-1p',
      provider_type: 'onepassword',
      token: 'tok',
      url: 'https://connect.example.com',
    },
    respond: { status: 201, json: samples.credentialProvider },
    result: samples.credentialProvider,
  },
  'credentialProviders.list': {
    input: { query: 'team' },
    method: 'GET',
    url: '/org/credential_providers?query=team',
    respond: ok([samples.credentialProvider]),
    result: [samples.credentialProvider],
  },
  'credentialProviders.get': {
    input: { id_or_name: 'team-1p' },
    method: 'GET',
    url: '/org/credential_providers/team-1p',
    respond: ok(samples.credentialProvider),
    result: samples.credentialProvider,
  },
  'credentialProviders.update': {
    input: { id_or_name: 'cp_1', token: 'rotated', enabled: false },
    method: 'PATCH',
    url: '/org/credential_providers/cp_1',
    body: { token: 'rotated', enabled: false },
    respond: ok(samples.credentialProvider),
    result: samples.credentialProvider,
  },
  'credentialProviders.delete': {
    input: { id_or_name: 'cp_1' },
    method: 'DELETE',
    url: '/org/credential_providers/cp_1',
    respond: noContent,
    result: undefined,
  },
  'credentialProviders.test': {
    input: { id_or_name: 'cp_1' },
    method: 'POST',
    url: '/org/credential_providers/cp_1/test',
    respond: ok({ success: true, vaults: [{ id: 'v1', name: 'Agents' }] }),
    result: { success: true, vaults: [{ id: 'v1', name: 'Agents' }] },
  },
  'credentialProviders.items': {
    input: { id_or_name: 'cp_1' },
    method: 'GET',
    url: '/org/credential_providers/cp_1/items',
    respond: ok({
      items: [
        { id: 'i1', path: 'Agents/Shop', title: 'Shop', vault_id: 'v1', vault_name: 'Agents' },
      ],
    }),
    result: {
      items: [
        { id: 'i1', path: 'Agents/Shop', title: 'Shop', vault_id: 'v1', vault_name: 'Agents' },
      ],
    },
  },
};
