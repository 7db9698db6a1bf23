import { readdirSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import * as areas from '../areas.js';
import { operationFields } from './fields.js';
import { successStatuses } from './operation.js';
import { operationByName, operations } from './operations.js';
import { pathParamNames } from './paths.js';

/** Every operation contract.md names: the seven of the interface description and the companions. */
const CONTRACT_OPERATIONS = [
  // Projects, API keys, limits, the audit log and the nodes (the organization's operations).
  'POST /org/projects',
  'GET /org/projects',
  'GET /org/projects/{id_or_name}',
  'PATCH /org/projects/{id_or_name}',
  'DELETE /org/projects/{id_or_name}',
  'GET /org/projects/{id_or_name}/limits',
  'PATCH /org/projects/{id_or_name}/limits',
  'GET /org/limits',
  'PATCH /org/limits',
  'POST /org/api_keys',
  'GET /org/api_keys',
  'GET /org/api_keys/{id}',
  'PATCH /org/api_keys/{id}',
  'DELETE /org/api_keys/{id}',
  'POST /org/api_keys/{id}/rotate',
  'GET /audit-logs',
  'GET /org/nodes',
  'POST /org/nodes/{id}/drain',
  // Playwright code, logs, curl and telemetry on the instance.
  'POST /browsers/{id}/playwright/execute',
  'GET /browsers/{id}/logs/stream',
  'POST /browsers/{id}/curl',
  'GET /browsers/{id}/telemetry/events',
  'GET /browsers/{id}/telemetry/stream',
  'POST /browsers/{id}/process/{process_id}/stdin',
  'POST /browsers/{id}/process/{process_id}/resize',
  'POST /browsers/{id}/replays/{replay_id}/stop',
  'POST /browsers/{id}/computer/type',
  'GET /browser_pools/{id_or_name}',
  'POST /extensions',
  'GET /invocations/{id}/browsers',
  'GET /browsers/{id}/process/{process_id}/status',
  'DELETE /browsers/{id}/fs/watch/{watch_id}',
  'POST /browsers',
  'GET /browsers',
  'GET /browsers/{id}',
  'DELETE /browsers/{id}',
  'POST /browsers/{id}/computer/screenshot',
  'POST /browsers/{id}/computer/click_mouse',
  'POST /browsers/{id}/computer/move_mouse',
  'POST /browsers/{id}/computer/drag_mouse',
  'POST /browsers/{id}/computer/scroll',
  'POST /browsers/{id}/computer/press_key',
  'POST /browsers/{id}/computer/get_mouse_position',
  'POST /browsers/{id}/computer/cursor',
  'POST /browsers/{id}/computer/clipboard/read',
  'POST /browsers/{id}/computer/clipboard/write',
  'POST /browsers/{id}/computer/batch',
  'POST /browsers/{id}/replays',
  'GET /browsers/{id}/replays',
  'GET /browsers/{id}/replays/{replay_id}',
  'POST /browsers/{id}/process/spawn',
  'POST /browsers/{id}/process/exec',
  'POST /browsers/{id}/process/{process_id}/kill',
  'GET /browsers/{id}/process/{process_id}/stdout/stream',
  'POST /browsers/{id}/fs/watch',
  'POST /browsers/{id}/live_view',
  'GET /browsers/{id}/fs/watch/{watch_id}/events',
  'GET /browsers/{id}/fs/read_file',
  'PUT /browsers/{id}/fs/write_file',
  'GET /browsers/{id}/fs/list_files',
  'GET /browsers/{id}/fs/file_info',
  'PUT /browsers/{id}/fs/create_directory',
  'PUT /browsers/{id}/fs/delete_file',
  'PUT /browsers/{id}/fs/delete_directory',
  'PUT /browsers/{id}/fs/move',
  'PUT /browsers/{id}/fs/set_file_permissions',
  'POST /browsers/{id}/fs/upload',
  'POST /browsers/{id}/fs/upload_zip',
  'GET /browsers/{id}/fs/download_dir_zip',
  'POST /browser_pools',
  'GET /browser_pools',
  'PATCH /browser_pools/{id_or_name}',
  'DELETE /browser_pools/{id_or_name}',
  'POST /browser_pools/{id_or_name}/acquire',
  'POST /browser_pools/{id_or_name}/release',
  'POST /browser_pools/{id_or_name}/flush',
  'GET /extensions',
  'GET /invocations',
  'GET /extensions/{id_or_name}',
  'DELETE /extensions/{id_or_name}',
  'GET /extensions/{id_or_name}/metadata',
  'PATCH /browsers/{id}',
  'DELETE /invocations/{id}/browsers',
  'POST /browsers/{id}/extensions',
  'POST /invocations',
  'GET /invocations/{id}',
  'PATCH /invocations/{id}',
  'POST /profiles',
  'GET /profiles',
  'GET /profiles/{id_or_name}',
  'PATCH /profiles/{id_or_name}',
  'DELETE /profiles/{id_or_name}',
  'GET /profiles/{id_or_name}/download',
  'POST /proxies',
  'GET /proxies',
  'GET /proxies/{id}',
  'PATCH /proxies/{id}',
  'DELETE /proxies/{id}',
  'POST /proxies/{id}/check',
  'POST /credentials',
  'GET /credentials',
  'GET /credentials/{id_or_name}',
  'PATCH /credentials/{id_or_name}',
  'DELETE /credentials/{id_or_name}',
  'GET /credentials/{id_or_name}/totp-code',
  'POST /org/credential_providers',
  'GET /org/credential_providers',
  'GET /org/credential_providers/{id_or_name}',
  'PATCH /org/credential_providers/{id_or_name}',
  'DELETE /org/credential_providers/{id_or_name}',
  'POST /org/credential_providers/{id_or_name}/test',
  'GET /org/credential_providers/{id_or_name}/items',
  'POST /auth/connections',
  'GET /auth/connections',
  'GET /auth/connections/{id}',
  'PATCH /auth/connections/{id}',
  'DELETE /auth/connections/{id}',
  'POST /auth/connections/{id}/login',
  'POST /auth/connections/{id}/submit',
  'GET /auth/connections/{id}/events',
  'GET /auth/connections/{id}/timeline',
  'POST /deployments',
  'GET /deployments',
  'GET /deployments/{id}',
  'DELETE /deployments/{id}',
  'GET /deployments/{id}/events',
  'GET /apps',
  'GET /invocations/{id}/events',
  // Who the caller is.
  'GET /auth/context',
];

/** The success status contract.md decides for each operation that has one. */
const CONTRACT_SUCCESS: Record<string, number[]> = {
  'browsers.replays.stop': [200],
  'browsers.computer.type': [204],
  'browserPools.get': [200],
  'extensions.upload': [201],
  'invocations.listBrowsers': [200],
  'browsers.process.status': [200],
  'browsers.fs.watch.stop': [204],
  'browsers.create': [201],
  'browsers.delete': [204],
  'browsers.replays.start': [201],
  'browsers.liveView.create': [201],
  'browsers.replays.download': [200, 202],
  'browsers.fs.watch.start': [201],
  'browserPools.acquire': [200, 204],
  'browserPools.release': [204],
  'browserPools.flush': [204],
  'extensions.delete': [204],
  'invocations.create': [200, 202],
  'invocations.deleteBrowsers': [204],
  'browsers.update': [200],
  'extensions.metadata': [200],
  'browsers.loadExtensions': [200],
  'credentials.create': [201],
  'credentials.delete': [204],
  'credentialProviders.create': [201],
  'credentialProviders.delete': [204],
  'auth.connections.create': [201],
  'auth.connections.delete': [204],
  'auth.context.get': [200],
};

const signature = (operation: { method: string; path: string }) =>
  `${operation.method} ${operation.path}`;

describe('the operation catalog', () => {
  it('holds every operation of contract.md (v0.1.0; a new area may add more)', () => {
    const signatures = new Set(operations.map(signature));
    expect(CONTRACT_OPERATIONS.filter((operation) => !signatures.has(operation))).toEqual([]);
  });

  it('is every operation the areas export, each exported as `<function>Operation`, by name', () => {
    const catalogued = new Set<unknown>(operations);
    const named = Object.entries(areas).filter(([name]) => name.endsWith('Operation'));
    expect(named.filter(([, value]) => !catalogued.has(value)).map(([name]) => name)).toEqual([]);
    expect(named.length).toBe(operations.length);
    // By group, then name: a group's operations together, before those of a group inside it.
    const groups = operations.map(({ name }) => name.slice(0, name.lastIndexOf('.')));
    expect(groups).toEqual([...groups].sort());
    const names = operations.map(({ name }) => name);
    for (const group of new Set(groups)) {
      const inGroup = names.filter((_, index) => groups[index] === group);
      expect(inGroup).toEqual([...inGroup].sort());
    }
  });

  it("leaves out no operation of an area's files (each file that has one is in `areas.ts`)", async () => {
    const source = new URL('../', import.meta.url);
    const catalogued = new Set<unknown>(operations);
    const missing: string[] = [];
    for (const folder of readdirSync(source, { withFileTypes: true })) {
      if (!folder.isDirectory() || folder.name.startsWith('_')) continue;
      for (const file of readdirSync(new URL(`${folder.name}/`, source))) {
        if (!file.endsWith('.ts') || /\.test(-d)?\.ts$/.test(file)) continue;
        const module: Record<string, unknown> = await import(`../${folder.name}/${file}`);
        for (const [name, value] of Object.entries(module)) {
          if (name.endsWith('Operation') && typeof value === 'object' && !catalogued.has(value)) {
            missing.push(`${folder.name}/${file}: ${name}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('has unique (method, path) pairs and unique names', () => {
    expect(new Set(operations.map(signature)).size).toBe(operations.length);
    expect(new Set(operations.map((operation) => operation.name)).size).toBe(operations.length);
  });

  it('marks the seven operations of the interface description with their sections', () => {
    const sections = operations
      .filter((operation) => 'specSection' in operation)
      .map((operation) => [operation.specSection, signature(operation)]);
    expect(Object.fromEntries(sections)).toEqual({
      '4.1': 'POST /browsers/{id}/replays/{replay_id}/stop',
      '4.2': 'POST /browsers/{id}/computer/type',
      '4.3': 'GET /browser_pools/{id_or_name}',
      '4.4': 'POST /extensions',
      '4.5': 'GET /invocations/{id}/browsers',
      '4.6': 'GET /browsers/{id}/process/{process_id}/status',
      '4.7': 'DELETE /browsers/{id}/fs/watch/{watch_id}',
    });
  });

  it('paginates every list of records, with offset and limit and an array answer', () => {
    // A directory listing and an invocation's active browsers (4.5: all of them, bounded by the
    // server's capacity) are answered whole; every other list is taken a page at a time.
    const lists = operations.filter(
      (operation) =>
        operation.method === 'GET' &&
        operation.name !== 'browsers.fs.listFiles' &&
        operation.responses[200]?.kind === 'json' &&
        operation.responses[200].schema.type === 'array',
    );
    expect(lists.map((operation) => operation.name).sort()).toEqual(
      operations
        .filter((operation) => 'paginated' in operation)
        .map((operation) => operation.name)
        .sort(),
    );
    for (const operation of lists) {
      expect([operation.name, operationFields(operation).query]).toEqual([
        operation.name,
        expect.arrayContaining(
          'pageToken' in operation ? ['page_token', 'limit'] : ['offset', 'limit'],
        ),
      ]);
    }
    expect(lists.length).toBe(18);
  });

  it('answers with the success statuses contract.md decides', () => {
    for (const [name, statuses] of Object.entries(CONTRACT_SUCCESS)) {
      expect([name, successStatuses(operationByName(name as never))]).toEqual([name, statuses]);
    }
  });

  it.each(operations.map((operation) => [operation.name, operation] as const))(
    '%s: path params schema names exactly the template placeholders',
    (_, operation) => {
      const names = pathParamNames(operation.path);
      expect([...operationFields(operation).path].sort()).toEqual([...names].sort());
    },
  );

  it.each(operations.map((operation) => [operation.name, operation] as const))(
    '%s: path, query and body field names never collide (callers pass them flat)',
    (_, operation) => {
      const fields = operationFields(operation);
      const keys = [...fields.path, ...fields.query, ...fields.body];
      expect(new Set(keys).size).toBe(keys.length);
    },
  );

  it('gives every operation the auth, overload and internal error statuses', () => {
    for (const operation of operations) {
      expect(operation.errorStatuses).toEqual(expect.arrayContaining([401, 403, 429, 500, 503]));
    }
  });

  it('lets only GET operations and the POSTs that look (screenshot, mouse, clipboard) be read-only', () => {
    const lookingPosts = new Set([
      'browsers.computer.screenshot',
      'browsers.computer.getMousePosition',
      'browsers.computer.readClipboard',
    ]);
    const looks = operations.filter((operation) => operation.access !== 'write');
    for (const operation of looks) {
      expect([operation.name, operation.method]).toEqual([
        operation.name,
        lookingPosts.has(operation.name) ? 'POST' : 'GET',
      ]);
    }
    for (const operation of operations.filter((operation) => operation.method !== 'GET')) {
      if (!lookingPosts.has(operation.name)) expect(operation.access).toBe('write');
    }
  });

  it('keeps what sessions and stored objects hold from read-only tokens: records only', () => {
    const contents = operations
      .filter((operation) => operation.access === 'contents')
      .map((operation) => operation.name)
      .sort();
    expect(contents).toEqual([
      'auth.connections.events',
      'browsers.computer.readClipboard',
      'browsers.computer.screenshot',
      'browsers.fs.downloadDirZip',
      'browsers.fs.fileInfo',
      'browsers.fs.listFiles',
      'browsers.fs.readFile',
      'browsers.fs.watch.events',
      'browsers.logs.stream',
      'browsers.process.output',
      'browsers.replays.download',
      'browsers.telemetry.events',
      'browsers.telemetry.stream',
      'credentialProviders.items',
      'credentials.totpCode',
      'deployments.events',
      'extensions.download',
      'invocations.events',
      'profiles.download',
    ]);
    // Every other look is at records: no binary body, no stream of a session's output.
    for (const operation of operations.filter((operation) => operation.access === 'read')) {
      for (const response of Object.values(operation.responses))
        expect([operation.name, response.kind]).toEqual([operation.name, 'json']);
    }
  });

  it('lists where each field of an operation travels', () => {
    expect(operationFields(operationByName('browserPools.delete'))).toEqual({
      path: ['id_or_name'],
      query: ['force'],
      body: [],
    });
    expect(operationFields(operationByName('browsers.computer.type'))).toEqual({
      path: ['id'],
      query: [],
      body: ['text', 'delay'],
    });
    expect(operationFields(operationByName('browsers.computer.screenshot')).body).toEqual([
      'region',
    ]);
  });

  it('says how long the server may take for the operations that wait', () => {
    const acquire = operationByName('browserPools.acquire');
    expect(acquire.serverTimeMs({ acquire_timeout_seconds: 30 })).toBe(30_000);
    const type = operationByName('browsers.computer.type');
    expect(type.serverTimeMs({ text: '👋ab', delay: 100 })).toBe(300);
    const drain = operationByName('nodes.drain');
    expect(drain.serverTimeMs({ wait_seconds: 120 })).toBe(120_000);
    expect(drain.serverTimeMs({} as never)).toBe(0);
  });

  it('says so from the body as sent: a field left out (or not a number) means its default', () => {
    const acquire = operationByName('browserPools.acquire');
    expect(acquire.serverTimeMs(undefined as never)).toBe(30_000);
    expect(acquire.serverTimeMs({} as never)).toBe(30_000);
    expect(acquire.serverTimeMs({ acquire_timeout_seconds: '5' } as never)).toBe(30_000);
    const type = operationByName('browsers.computer.type');
    expect(type.serverTimeMs({ text: 'abc' } as never)).toBe(0);
    expect(type.serverTimeMs({ delay: 100 } as never)).toBe(0);
    const exec = operationByName('browsers.process.exec');
    expect(exec.serverTimeMs({ command: 'ls' } as never)).toBe(0);
    expect(exec.serverTimeMs({ command: 'ls', timeout_sec: 7 } as never)).toBe(7000);
    expect(exec.serverTimeMs({ command: 'ls', timeout_sec: -1 } as never)).toBe(0);
    const drag = operationByName('browsers.computer.dragMouse');
    // Three points, default 10 steps per segment and 50 ms a step.
    expect(
      drag.serverTimeMs!({
        path: [
          [0, 0],
          [1, 1],
          [2, 2],
        ],
      } as never),
    ).toBe(1000);
    expect(
      drag.serverTimeMs!({
        path: [
          [0, 0],
          [1, 1],
        ],
        delay: 5,
        duration_ms: 400,
      } as never),
    ).toBe(405);
    const batch = operationByName('browsers.computer.batch');
    const actions = [
      { type: 'type_text', type_text: { text: 'abc', delay: 10 } },
      { type: 'move_mouse', move_mouse: { x: 1, y: 1, smooth: true } },
      { type: 'press_key', press_key: { keys: ['a', 'b'] } },
      { type: 'sleep', sleep: { duration_ms: 7 } },
    ];
    expect(batch.serverTimeMs!({ actions } as never)).toBe(30 + 300 + 0 + 7);
    expect(batch.serverTimeMs!({ actions: 'no' } as never)).toBe(0);
  });

  it('finds an operation by name, and throws for an unknown one', () => {
    expect(operationByName('browserPools.get').path).toBe('/browser_pools/{id_or_name}');
    expect(() => operationByName('nope' as never)).toThrow(/No operation named "nope"/);
  });

  it('validates path parameters: ids are url-safe, names may hold dots', () => {
    const pool = operationByName('browserPools.get');
    expect(v.is(pool.pathParams, { id_or_name: 'checkout.v2' })).toBe(true);
    const process = operationByName('browsers.process.status');
    expect(v.is(process.pathParams, { id: 'a.b', process_id: 'p' })).toBe(false);
    expect(v.is(process.pathParams, { id: 'x'.repeat(65), process_id: 'p' })).toBe(false);
    // get, update and delete take a running browser's name as well.
    const browser = operationByName('browsers.get');
    expect(v.is(browser.pathParams, { id: 'checkout.v2' })).toBe(true);
    expect(v.is(browser.pathParams, { id: 'x'.repeat(256) })).toBe(false);
    expect(v.is(pool.pathParams, { id_or_name: '..' })).toBe(false);
    expect(v.is(pool.pathParams, { id_or_name: '.' })).toBe(false);
    expect(v.is(pool.pathParams, { id_or_name: '...' })).toBe(true);
  });
});
