import { operations } from '@x/types';
import { describe, expect, it } from 'vitest';
import { definitionOf } from '../calls/define-call.js';
import * as functions from '../calls/operations.js';
import {
  type RecordedCall,
  type Responder,
  useRecordingServer,
} from '../test-support/recording-server.js';
import * as samples from '../test-support/samples.js';
import type { Client } from './create-client.js';

interface MethodCase {
  input?: Record<string, unknown>;
  method: string;
  /** Path and query the server must receive. */
  url: string;
  /** The JSON body the server must receive, or undefined for none. */
  body?: unknown;
  respond: Responder;
  /** What the method must resolve to. */
  result: unknown;
}

const created = (json: unknown): Responder => ({ status: 201, json });
const ok = (json: unknown): Responder => ({ status: 200, json });
const noContent: Responder = { status: 204 };

const project = {
  id: 'proj_1',
  name: 'staging',
  status: 'active',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};
const projectLimits = { max_concurrent_sessions: 5, max_concurrent_invocations: null };
const orgLimits = {
  max_concurrent_sessions: 20,
  default_project_max_concurrent_sessions: 5,
  default_project_max_concurrent_invocations: null,
};
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
const apiKey = {
  id: 'key_1',
  name: 'ci',
  masked_key: 'xbk_…abcd',
  project_id: 'proj_1',
  project_name: 'staging',
  read_only: false,
  created_at: '2026-11-22T10:00:00.000Z',
  expires_at: null,
  deleted_at: null,
};
const createdKey = { ...apiKey, key: 'xbk_secret_abcd' };
const serviceNode = {
  id: 'a1b2',
  url: 'http://10.0.0.1:8080',
  state: 'draining',
  is_self: true,
  max_browsers: 20,
  browsers: 3,
};
const auditEntry = {
  id: 'aud_1',
  timestamp: '2026-11-22T10:00:00.000Z',
  key_id: 'key_1',
  key_name: 'ci',
  auth_strategy: 'api_key',
  project_id: 'proj_1',
  method: 'POST',
  path: '/browsers',
  route: 'browsers.create',
  status: 201,
  client_ip: '127.0.0.1',
  user_agent: 'xb',
  duration_ms: 900,
};

/** One realistic call of every operation in the catalog. */
const CASES: Record<string, MethodCase> = {
  'projects.create': {
    input: { name: 'staging' },
    method: 'POST',
    url: '/org/projects',
    body: { name: 'staging' },
    respond: created(project),
    result: project,
  },
  'projects.list': {
    input: { query: 'stag' },
    method: 'GET',
    url: '/org/projects?query=stag',
    respond: ok([project]),
    result: [project],
  },
  'projects.get': {
    input: { id_or_name: 'staging' },
    method: 'GET',
    url: '/org/projects/staging',
    respond: ok(project),
    result: project,
  },
  'projects.update': {
    input: { id_or_name: 'proj_1', status: 'archived' },
    method: 'PATCH',
    url: '/org/projects/proj_1',
    body: { status: 'archived' },
    respond: ok({ ...project, status: 'archived' }),
    result: { ...project, status: 'archived' },
  },
  'projects.delete': {
    input: { id_or_name: 'staging' },
    method: 'DELETE',
    url: '/org/projects/staging',
    respond: noContent,
    result: undefined,
  },
  'projects.limits.get': {
    input: { id_or_name: 'staging' },
    method: 'GET',
    url: '/org/projects/staging/limits',
    respond: ok(projectLimits),
    result: projectLimits,
  },
  'projects.limits.update': {
    input: { id_or_name: 'staging', max_concurrent_sessions: 5 },
    method: 'PATCH',
    url: '/org/projects/staging/limits',
    body: { max_concurrent_sessions: 5 },
    respond: ok(projectLimits),
    result: projectLimits,
  },
  'org.limits.get': {
    method: 'GET',
    url: '/org/limits',
    respond: ok(orgLimits),
    result: orgLimits,
  },
  'org.limits.update': {
    input: { default_project_max_concurrent_sessions: 5 },
    method: 'PATCH',
    url: '/org/limits',
    body: { default_project_max_concurrent_sessions: 5 },
    respond: ok(orgLimits),
    result: orgLimits,
  },
  'apiKeys.create': {
    input: { name: 'ci', project_id: 'staging', days_to_expire: 30 },
    method: 'POST',
    url: '/org/api_keys',
    body: { name: 'ci', project_id: 'staging', days_to_expire: 30 },
    respond: created(createdKey),
    result: createdKey,
  },
  'apiKeys.list': {
    input: { status: 'all' },
    method: 'GET',
    url: '/org/api_keys?status=all',
    respond: ok([apiKey]),
    result: [apiKey],
  },
  'apiKeys.get': {
    input: { id: 'key_1', include_deleted: true },
    method: 'GET',
    url: '/org/api_keys/key_1?include_deleted=true',
    respond: ok(apiKey),
    result: apiKey,
  },
  'apiKeys.update': {
    input: { id: 'key_1', name: 'deploys' },
    method: 'PATCH',
    url: '/org/api_keys/key_1',
    body: { name: 'deploys' },
    respond: ok({ ...apiKey, name: 'deploys' }),
    result: { ...apiKey, name: 'deploys' },
  },
  'apiKeys.delete': {
    input: { id: 'key_1' },
    method: 'DELETE',
    url: '/org/api_keys/key_1',
    respond: noContent,
    result: undefined,
  },
  'apiKeys.rotate': {
    input: { id: 'key_1', expire_in_days: 1 },
    method: 'POST',
    url: '/org/api_keys/key_1/rotate',
    body: { expire_in_days: 1 },
    respond: created(createdKey),
    result: createdKey,
  },
  'nodes.list': {
    method: 'GET',
    url: '/org/nodes',
    respond: ok([serviceNode]),
    result: [serviceNode],
  },
  'nodes.drain': {
    input: { id: 'a1b2', wait_seconds: 1 },
    method: 'POST',
    url: '/org/nodes/a1b2/drain',
    body: { wait_seconds: 1 },
    respond: ok({ node: serviceNode, browsers_in_use: 2 }),
    result: { node: serviceNode, browsers_in_use: 2 },
  },
  'auditLogs.list': {
    input: { start: '2026-11-22T00:00:00.000Z', end: '2026-11-23T00:00:00.000Z', method: 'POST' },
    method: 'GET',
    url: '/audit-logs?start=2026-11-22T00%3A00%3A00.000Z&end=2026-11-23T00%3A00%3A00.000Z&method=POST',
    respond: ok([auditEntry]),
    result: [auditEntry],
  },
  'browsers.replays.stop': {
    input: { id: 'br_1', replay_id: 'rp_1' },
    method: 'POST',
    url: '/browsers/br_1/replays/rp_1/stop',
    respond: ok({ ...samples.replay, finished_at: '2026-11-22T10:00:05.000Z' }),
    result: { ...samples.replay, finished_at: '2026-11-22T10:00:05.000Z' },
  },
  'browsers.computer.type': {
    input: { id: 'br_1', text: 'héllo 世界 👋\n', delay: 5 },
    method: 'POST',
    url: '/browsers/br_1/computer/type',
    body: { text: 'héllo 世界 👋\n', delay: 5 },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.clickMouse': {
    input: { id: 'br_1', x: 10, y: 20, button: 'right', num_clicks: 2, hold_keys: ['ctrl'] },
    method: 'POST',
    url: '/browsers/br_1/computer/click_mouse',
    body: { x: 10, y: 20, button: 'right', num_clicks: 2, hold_keys: ['ctrl'] },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.moveMouse': {
    input: { id: 'br_1', x: 1, y: 2, smooth: true, duration_ms: 200 },
    method: 'POST',
    url: '/browsers/br_1/computer/move_mouse',
    body: { x: 1, y: 2, smooth: true, duration_ms: 200 },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.dragMouse': {
    input: {
      id: 'br_1',
      path: [
        [1, 2],
        [3, 4],
      ],
      steps_per_segment: 3,
    },
    method: 'POST',
    url: '/browsers/br_1/computer/drag_mouse',
    body: {
      path: [
        [1, 2],
        [3, 4],
      ],
      steps_per_segment: 3,
    },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.scroll': {
    input: { id: 'br_1', x: 5, y: 6, delta_y: -2 },
    method: 'POST',
    url: '/browsers/br_1/computer/scroll',
    body: { x: 5, y: 6, delta_y: -2 },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.pressKey': {
    input: { id: 'br_1', keys: ['Ctrl+t', 'Return'], duration: 50 },
    method: 'POST',
    url: '/browsers/br_1/computer/press_key',
    body: { keys: ['Ctrl+t', 'Return'], duration: 50 },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.getMousePosition': {
    input: { id: 'br_1' },
    method: 'POST',
    url: '/browsers/br_1/computer/get_mouse_position',
    respond: ok({ x: 3, y: 4 }),
    result: { x: 3, y: 4 },
  },
  'browsers.computer.setCursorVisibility': {
    input: { id: 'br_1', hidden: true },
    method: 'POST',
    url: '/browsers/br_1/computer/cursor',
    body: { hidden: true },
    respond: ok({ ok: true }),
    result: { ok: true },
  },
  'browsers.computer.readClipboard': {
    input: { id: 'br_1' },
    method: 'POST',
    url: '/browsers/br_1/computer/clipboard/read',
    respond: ok({ text: 'copied' }),
    result: { text: 'copied' },
  },
  'browsers.computer.writeClipboard': {
    input: { id: 'br_1', text: 'to paste' },
    method: 'POST',
    url: '/browsers/br_1/computer/clipboard/write',
    body: { text: 'to paste' },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.batch': {
    input: { id: 'br_1', actions: [{ type: 'sleep', sleep: { duration_ms: 5 } }] },
    method: 'POST',
    url: '/browsers/br_1/computer/batch',
    body: { actions: [{ type: 'sleep', sleep: { duration_ms: 5 } }] },
    respond: noContent,
    result: undefined,
  },
  'browserPools.get': {
    input: { id_or_name: 'checkout' },
    method: 'GET',
    url: '/browser_pools/checkout',
    respond: ok(samples.pool),
    result: samples.pool,
  },
  'invocations.listBrowsers': {
    input: { id: 'inv_1' },
    method: 'GET',
    url: '/invocations/inv_1/browsers',
    respond: ok({ browsers: [samples.session] }),
    result: { browsers: [samples.session] },
  },
  'browsers.process.status': {
    input: { id: 'br_1', process_id: 'pr_1' },
    method: 'GET',
    url: '/browsers/br_1/process/pr_1/status',
    respond: ok(samples.processStatus),
    result: samples.processStatus,
  },
  'browsers.fs.watch.stop': {
    input: { id: 'br_1', watch_id: 'w_1' },
    method: 'DELETE',
    url: '/browsers/br_1/fs/watch/w_1',
    respond: noContent,
    result: undefined,
  },
  'browsers.create': {
    input: { invocation_id: 'inv_1', viewport: { width: 1280, height: 800 } },
    method: 'POST',
    url: '/browsers',
    body: { invocation_id: 'inv_1', viewport: { width: 1280, height: 800 } },
    respond: created(samples.session),
    result: samples.session,
  },
  'browsers.list': {
    input: { status: 'all', limit: 50 },
    method: 'GET',
    url: '/browsers?limit=50&status=all',
    respond: ok([samples.session]),
    result: [samples.session],
  },
  'browsers.get': {
    input: { id: 'br_1' },
    method: 'GET',
    url: '/browsers/br_1',
    respond: ok(samples.session),
    result: samples.session,
  },
  'browsers.update': {
    input: { id: 'checkout-agent', tags: { team: 'shop' }, viewport: { width: 800, height: 600 } },
    method: 'PATCH',
    url: '/browsers/checkout-agent',
    body: { tags: { team: 'shop' }, viewport: { width: 800, height: 600 } },
    respond: ok(samples.session),
    result: samples.session,
  },
  'invocations.deleteBrowsers': {
    input: { id: 'inv_1' },
    method: 'DELETE',
    url: '/invocations/inv_1/browsers',
    respond: noContent,
    result: undefined,
  },
  'extensions.metadata': {
    input: { id_or_name: 'adblock' },
    method: 'GET',
    url: '/extensions/adblock/metadata',
    respond: ok(samples.extension),
    result: samples.extension,
  },
  'browsers.delete': {
    input: { id: 'br_1' },
    method: 'DELETE',
    url: '/browsers/br_1',
    respond: noContent,
    result: undefined,
  },
  'browsers.liveView.create': {
    input: { id: 'br_1', mode: 'read', ttl_seconds: 600 },
    method: 'POST',
    url: '/browsers/br_1/live_view',
    body: { mode: 'read', ttl_seconds: 600 },
    respond: created(samples.liveView),
    result: samples.liveView,
  },
  'browsers.replays.start': {
    input: { id: 'br_1', framerate: 5 },
    method: 'POST',
    url: '/browsers/br_1/replays',
    body: { framerate: 5 },
    respond: created(samples.replay),
    result: samples.replay,
  },
  'browsers.telemetry.events': {
    input: { id: 'br_1', category: ['console', 'network'], order: 'desc' },
    method: 'GET',
    url: '/browsers/br_1/telemetry/events?category=console%2Cnetwork&order=desc',
    respond: ok([samples.telemetryEnvelope]),
    result: [samples.telemetryEnvelope],
  },
  'browsers.replays.list': {
    input: { id: 'br_1' },
    method: 'GET',
    url: '/browsers/br_1/replays',
    respond: ok([samples.replay]),
    result: [samples.replay],
  },
  'browsers.process.spawn': {
    input: { id: 'br_1', command: 'sleep', args: ['5'] },
    method: 'POST',
    url: '/browsers/br_1/process/spawn',
    body: { command: 'sleep', args: ['5'] },
    respond: ok({ process_id: 'pr_1', pid: 42, started_at: '2026-11-22T10:00:00.000Z' }),
    result: { process_id: 'pr_1', pid: 42, started_at: '2026-11-22T10:00:00.000Z' },
  },
  'browsers.process.exec': {
    input: { id: 'br_1', command: 'echo', args: ['hi'] },
    method: 'POST',
    url: '/browsers/br_1/process/exec',
    body: { command: 'echo', args: ['hi'] },
    respond: ok({ exit_code: 0, stdout_b64: 'aGkK', stderr_b64: '', duration_ms: 4 }),
    result: { exit_code: 0, stdout_b64: 'aGkK', stderr_b64: '', duration_ms: 4 },
  },
  'browsers.playwright.execute': {
    input: { id: 'br_1', code: 'return 1', timeout_sec: 5 },
    method: 'POST',
    url: '/browsers/br_1/playwright/execute',
    body: { code: 'return 1', timeout_sec: 5 },
    respond: ok({ success: true, result: 1 }),
    result: { success: true, result: 1 },
  },
  'browsers.curl': {
    input: { id: 'br_1', url: 'https://example.com/', method: 'POST', body: 'hi' },
    method: 'POST',
    url: '/browsers/br_1/curl',
    body: { url: 'https://example.com/', method: 'POST', body: 'hi' },
    respond: ok({
      status: 200,
      headers: { 'content-type': ['text/plain'] },
      body: 'ok',
      duration_ms: 3,
    }),
    result: {
      status: 200,
      headers: { 'content-type': ['text/plain'] },
      body: 'ok',
      duration_ms: 3,
    },
  },
  'browsers.process.stdin': {
    input: { id: 'br_1', process_id: 'pr_1', data_b64: 'aGkK' },
    method: 'POST',
    url: '/browsers/br_1/process/pr_1/stdin',
    body: { data_b64: 'aGkK' },
    respond: ok({ written_bytes: 3 }),
    result: { written_bytes: 3 },
  },
  'browsers.process.resize': {
    input: { id: 'br_1', process_id: 'pr_1', rows: 40, cols: 120 },
    method: 'POST',
    url: '/browsers/br_1/process/pr_1/resize',
    body: { rows: 40, cols: 120 },
    respond: ok({ ok: true }),
    result: { ok: true },
  },
  'browsers.process.kill': {
    input: { id: 'br_1', process_id: 'pr_1', signal: 'KILL' },
    method: 'POST',
    url: '/browsers/br_1/process/pr_1/kill',
    body: { signal: 'KILL' },
    respond: ok({ ok: true }),
    result: { ok: true },
  },
  'browsers.fs.watch.start': {
    input: { id: 'br_1', path: '/home/browser/Downloads', recursive: true },
    method: 'POST',
    url: '/browsers/br_1/fs/watch',
    body: { path: '/home/browser/Downloads', recursive: true },
    respond: created({ watch_id: 'w_1' }),
    result: { watch_id: 'w_1' },
  },
  'browserPools.create': {
    input: { name: 'checkout', size: 2 },
    method: 'POST',
    url: '/browser_pools',
    body: { name: 'checkout', size: 2 },
    respond: created(samples.pool),
    result: samples.pool,
  },
  'browserPools.list': {
    input: { name: 'checkout' },
    method: 'GET',
    url: '/browser_pools?name=checkout',
    respond: ok([samples.pool]),
    result: [samples.pool],
  },
  'browserPools.update': {
    input: { id_or_name: 'checkout', size: 3 },
    method: 'PATCH',
    url: '/browser_pools/checkout',
    body: { size: 3 },
    respond: ok(samples.pool),
    result: samples.pool,
  },
  'browserPools.delete': {
    input: { id_or_name: 'checkout', force: true },
    method: 'DELETE',
    url: '/browser_pools/checkout?force=true',
    respond: noContent,
    result: undefined,
  },
  'browserPools.acquire': {
    input: { id_or_name: 'checkout', acquire_timeout_seconds: 1 },
    method: 'POST',
    url: '/browser_pools/checkout/acquire',
    body: { acquire_timeout_seconds: 1 },
    respond: ok(samples.session),
    result: { status: 200, value: samples.session },
  },
  'browserPools.release': {
    input: { id_or_name: 'checkout', session_id: 'br_1', reuse: false },
    method: 'POST',
    url: '/browser_pools/checkout/release',
    body: { session_id: 'br_1', reuse: false },
    respond: noContent,
    result: undefined,
  },
  'browserPools.flush': {
    input: { id_or_name: 'checkout' },
    method: 'POST',
    url: '/browser_pools/checkout/flush',
    respond: noContent,
    result: undefined,
  },
  'extensions.list': {
    input: { query: 'ad block' },
    method: 'GET',
    url: '/extensions?query=ad%20block',
    respond: ok([samples.extension]),
    result: [samples.extension],
  },
  'extensions.delete': {
    input: { id_or_name: 'adblock' },
    method: 'DELETE',
    url: '/extensions/adblock',
    respond: noContent,
    result: undefined,
  },
  'profiles.create': {
    input: { name: 'shop' },
    method: 'POST',
    url: '/profiles',
    body: { name: 'shop' },
    respond: created(samples.profile),
    result: samples.profile,
  },
  'profiles.list': {
    input: { query: 'sh', limit: 5, offset: 10 },
    method: 'GET',
    url: '/profiles?offset=10&limit=5&query=sh',
    respond: ok([samples.profile]),
    result: [samples.profile],
  },
  'profiles.get': {
    input: { id_or_name: 'shop' },
    method: 'GET',
    url: '/profiles/shop',
    respond: ok(samples.profile),
    result: samples.profile,
  },
  'profiles.update': {
    input: { id_or_name: 'shop', name: 'store' },
    method: 'PATCH',
    url: '/profiles/shop',
    body: { name: 'store' },
    respond: ok({ ...samples.profile, name: 'store' }),
    result: { ...samples.profile, name: 'store' },
  },
  'profiles.delete': {
    input: { id_or_name: 'shop' },
    method: 'DELETE',
    url: '/profiles/shop',
    respond: noContent,
    result: undefined,
  },
  'proxies.create': {
    input: {
      type: 'custom',
      config: { host: 'proxy.example.com', port: 3128, username: 'agent', password: 'pw' },
      bypass_hosts: ['localhost'],
    },
    method: 'POST',
    url: '/proxies',
    body: {
      type: 'custom',
      config: { host: 'proxy.example.com', port: 3128, username: 'agent', password: 'pw' },
      bypass_hosts: ['localhost'],
    },
    respond: created(samples.proxy),
    result: samples.proxy,
  },
  'proxies.list': {
    method: 'GET',
    url: '/proxies',
    respond: ok([samples.proxy]),
    result: [samples.proxy],
  },
  'proxies.get': {
    input: { id: 'px_1' },
    method: 'GET',
    url: '/proxies/px_1',
    respond: ok(samples.proxy),
    result: samples.proxy,
  },
  'proxies.update': {
    input: { id: 'px_1', config: { password: null } },
    method: 'PATCH',
    url: '/proxies/px_1',
    body: { config: { password: null } },
    respond: ok(samples.proxy),
    result: samples.proxy,
  },
  'proxies.delete': {
    input: { id: 'px_1', force: true },
    method: 'DELETE',
    url: '/proxies/px_1?force=true',
    respond: noContent,
    result: undefined,
  },
  'proxies.check': {
    input: { id: 'px_1' },
    method: 'POST',
    url: '/proxies/px_1/check',
    respond: ok({ ...samples.proxy, status: 'available', ip_address: '203.0.113.9' }),
    result: { ...samples.proxy, status: 'available', ip_address: '203.0.113.9' },
  },
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
  'deployments.list': {
    input: { app_name: 'greeter', app_version: 'v1' },
    method: 'GET',
    url: '/deployments?app_name=greeter&app_version=v1',
    respond: ok([samples.deployment]),
    result: [samples.deployment],
  },
  'deployments.get': {
    input: { id: 'dep_1' },
    method: 'GET',
    url: '/deployments/dep_1',
    respond: ok(samples.deployment),
    result: samples.deployment,
  },
  'deployments.delete': {
    input: { id: 'dep_1' },
    method: 'DELETE',
    url: '/deployments/dep_1',
    respond: noContent,
    result: undefined,
  },
  'apps.list': {
    input: { app_name: 'greeter' },
    method: 'GET',
    url: '/apps?app_name=greeter',
    respond: ok([samples.appVersion]),
    result: [samples.appVersion],
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
  'browsers.fs.listFiles': {
    input: { id: 'br_1', path: '/home/browser/Downloads' },
    method: 'GET',
    url: '/browsers/br_1/fs/list_files?path=%2Fhome%2Fbrowser%2FDownloads',
    respond: ok([samples.fileEntry]),
    result: [samples.fileEntry],
  },
  'browsers.fs.fileInfo': {
    input: { id: 'br_1', path: '/home/browser/Downloads/report.pdf' },
    method: 'GET',
    url: '/browsers/br_1/fs/file_info?path=%2Fhome%2Fbrowser%2FDownloads%2Freport.pdf',
    respond: ok(samples.fileEntry),
    result: samples.fileEntry,
  },
  'browsers.fs.createDirectory': {
    input: { id: 'br_1', path: '/home/browser/a/b', mode: '700' },
    method: 'PUT',
    url: '/browsers/br_1/fs/create_directory',
    body: { path: '/home/browser/a/b', mode: '700' },
    respond: { status: 201 },
    result: undefined,
  },
  'browsers.fs.deleteFile': {
    input: { id: 'br_1', path: '/home/browser/a.txt' },
    method: 'PUT',
    url: '/browsers/br_1/fs/delete_file',
    body: { path: '/home/browser/a.txt' },
    respond: { status: 200 },
    result: undefined,
  },
  'browsers.fs.deleteDirectory': {
    input: { id: 'br_1', path: '/home/browser/a' },
    method: 'PUT',
    url: '/browsers/br_1/fs/delete_directory',
    body: { path: '/home/browser/a' },
    respond: { status: 200 },
    result: undefined,
  },
  'browsers.fs.move': {
    input: { id: 'br_1', src_path: '/home/browser/a', dest_path: '/home/browser/b' },
    method: 'PUT',
    url: '/browsers/br_1/fs/move',
    body: { src_path: '/home/browser/a', dest_path: '/home/browser/b' },
    respond: { status: 200 },
    result: undefined,
  },
  'browsers.fs.setFilePermissions': {
    input: { id: 'br_1', path: '/home/browser/a', mode: '0600', owner: 'browser' },
    method: 'PUT',
    url: '/browsers/br_1/fs/set_file_permissions',
    body: { path: '/home/browser/a', mode: '0600', owner: 'browser' },
    respond: { status: 200 },
    result: undefined,
  },
  'invocations.create': {
    input: { action_name: 'checkout', app_name: 'shop', async: true },
    method: 'POST',
    url: '/invocations',
    body: { action_name: 'checkout', app_name: 'shop', async: true },
    respond: { status: 202, json: samples.invocation },
    result: { status: 202, value: samples.invocation },
  },
  'invocations.list': {
    input: { status: 'running', app_name: 'shop', action_name: 'checkout', offset: 20 },
    method: 'GET',
    url: '/invocations?offset=20&status=running&app_name=shop&action_name=checkout',
    respond: ok([samples.invocation]),
    result: [samples.invocation],
  },
  'invocations.get': {
    input: { id: 'inv_1' },
    method: 'GET',
    url: '/invocations/inv_1',
    respond: ok(samples.invocation),
    result: samples.invocation,
  },
  'invocations.update': {
    input: { id: 'inv_1', status: 'succeeded' },
    method: 'PATCH',
    url: '/invocations/inv_1',
    body: { status: 'succeeded' },
    respond: ok({ ...samples.invocation, status: 'succeeded' }),
    result: { ...samples.invocation, status: 'succeeded' },
  },
};

/** Operations whose answers are not plain values; each has its own test file. */
const COVERED_ELSEWHERE = [
  'extensions.upload', // uploads.test.ts
  'browsers.loadExtensions', // uploads.test.ts
  'extensions.download', // binary.test.ts
  'profiles.download', // tests/integration/src/client-against-fake.test.ts
  'browsers.replays.download', // binary.test.ts
  'browsers.computer.screenshot', // binary.test.ts
  'browsers.process.output', // event-stream.test.ts
  'browsers.fs.watch.events', // event-stream.test.ts
  'browsers.logs.stream', // streams.test.ts
  'auth.connections.events', // streams.test.ts
  'deployments.create', // uploads.test.ts
  'deployments.events', // streams.test.ts
  'invocations.events', // streams.test.ts
  'browsers.telemetry.stream', // streams.test.ts
  'browsers.fs.readFile', // files.test.ts
  'browsers.fs.writeFile', // files.test.ts
  'browsers.fs.upload', // files.test.ts
  'browsers.fs.uploadZip', // files.test.ts
  'browsers.fs.downloadDirZip', // files.test.ts
];

/** The operation function of an operation, by its name in the catalog. */
function functionOf(name: string) {
  const call = Object.values(functions).find((fn) => definitionOf(fn)?.route.name === name);
  return call as unknown as (core: unknown, input?: unknown) => Promise<unknown>;
}

function methodOf(client: Client, name: string) {
  let target: unknown = client;
  for (const segment of name.split('.')) target = (target as Record<string, unknown>)[segment];
  return target as (input?: unknown) => Promise<unknown>;
}

describe('every client method, against a real server on loopback', () => {
  const rig = useRecordingServer();

  it('covers every operation of the catalog', () => {
    expect([...Object.keys(CASES), ...COVERED_ELSEWHERE].sort()).toEqual(
      operations.map((operation) => operation.name).sort(),
    );
  });

  it.each(Object.entries(CASES))(
    '%s sends the right request and reads the answer',
    async (name, c) => {
      rig.server.respond(c.method, c.url.split('?')[0] as string, c.respond);
      // Checked: the case's input and answer hold to the catalog too, not only the route.
      const result = await methodOf(rig.checkedClient, name)(c.input);
      const operation = operations.find((entry) => entry.name === name)!;
      // A list resolves to a page: its records, and no more after them here.
      if ('paginated' in operation) {
        expect(result).toMatchObject({ items: c.result, hasMore: false, nextOffset: undefined });
      } else expect(result).toEqual(c.result);
      expect(rig.server.calls).toHaveLength(1);
      const call = rig.server.calls[0]!;
      expect(call.method).toBe(c.method);
      expect(call.url).toBe(c.url);
      expect(call.headers.authorization).toBe('Bearer tok_test');
      if (c.body === undefined) {
        expect(call.body.byteLength).toBe(0);
      } else {
        expect(call.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(call.body.toString())).toEqual(c.body);
      }
      const carriesKey = operation.method === 'POST' && operation.access === 'write';
      expect(call.headers['idempotency-key'] !== undefined).toBe(carriesKey);
    },
  );

  it.each(Object.entries(CASES))(
    '%s: its unchecked operation function sends the same request and gives the same value',
    async (name, c) => {
      rig.server.respond(c.method, c.url.split('?')[0] as string, c.respond);
      await methodOf(rig.checkedClient, name)(c.input);
      const fromFunction = functionOf(name);
      // Unchecked: checks change neither the request nor the value.
      const result = await fromFunction(rig.client.core, c.input);
      const [method, call] = rig.server.calls as [RecordedCall, RecordedCall];
      expect(call.method).toBe(method.method);
      expect(call.url).toBe(method.url);
      expect(call.headers['content-type']).toBe(method.headers['content-type']);
      expect(call.body.toString()).toBe(method.body.toString());
      expect(call.headers['idempotency-key'] !== undefined).toBe(
        method.headers['idempotency-key'] !== undefined,
      );
      const operation = operations.find((entry) => entry.name === name)!;
      if ('paginated' in operation) expect(result).toMatchObject({ items: c.result });
      else expect(result).toEqual(c.result);
    },
  );

  it('tells a timed-out acquire (204) from an acquired browser', async () => {
    rig.server.respond('POST', '/browser_pools/checkout/acquire', noContent);
    await expect(rig.client.browserPools.acquire({ id_or_name: 'checkout' })).resolves.toEqual({
      status: 204,
      value: undefined,
    });
  });

  it('percent-encodes path parameters', async () => {
    rig.server.respond('GET', '/browser_pools/my.pool-1', ok(samples.pool));
    await rig.client.browserPools.get({ id_or_name: 'my.pool-1' });
    expect(rig.server.calls[0]?.url).toBe('/browser_pools/my.pool-1');
  });

  it('gives the status, headers and request id with withResponse()', async () => {
    rig.server.respond('GET', '/browsers/br_1', {
      status: 200,
      json: samples.session,
      headers: { 'x-request-id': 'req-abc' },
    });
    const { data, status, requestId, response } = await rig.client.browsers
      .get({ id: 'br_1' })
      .withResponse();
    expect(data).toEqual(samples.session);
    expect(status).toBe(200);
    expect(requestId).toBe('req-abc');
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('accepts a 200 with an empty body where the contract says 204 (client liberal)', async () => {
    rig.server.respond('DELETE', '/browsers/br_1', { status: 200, body: '' });
    await expect(rig.client.browsers.delete({ id: 'br_1' })).resolves.toBeUndefined();
  });

  it('tolerates unknown fields in a response', async () => {
    rig.server.respond('GET', '/browser_pools/checkout', ok({ ...samples.pool, region: 'eu' }));
    await expect(rig.client.browserPools.get({ id_or_name: 'checkout' })).resolves.toMatchObject({
      id: 'pool_1',
    });
  });
});
