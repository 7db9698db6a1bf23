import { buildExtensionArchive, ContractContext, createFakeService } from '@x/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ALLOW_NETWORKS, TEST_TOKEN, useTestServer } from './test-support/servers.js';

/** Ids and names a step captured, by variable name: later steps use them in paths and bodies. */
type Variables = Record<string, string>;

/** One call of the script. */
interface Step {
  readonly method: string;
  readonly path: string;
  readonly json?: unknown;
  /** An extension archive upload (multipart), named `name` when given. */
  readonly upload?: { readonly name?: string };
  /** Keeps a field of the answer under a variable name: `{ br: 'session_id' }`. */
  readonly capture?: Record<string, string>;
}

/** What an answer is compared on: everything but values that differ by nature (ids, times). */
interface Shape {
  readonly status: number;
  readonly contentType: string;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly fields?: unknown;
}

/** Field names of a JSON value, nested (arrays by their first element). */
function fieldNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [fieldNames(value[0])];
  if (value === null || typeof value !== 'object') return typeof value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, fieldNames((value as Record<string, unknown>)[key])]),
  );
}

const fill = (text: string, variables: Variables) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => variables[name] ?? `{${name}}`);

/** A message with every captured value put back as its variable name. */
function unfill(message: unknown, variables: Variables): unknown {
  if (typeof message !== 'string') return message;
  let result = message;
  for (const [name, value] of Object.entries(variables))
    result = result.split(value).join(`{${name}}`);
  return result;
}

/**
 * The script: success and error paths of every area, in an order where each call's outcome is
 * the same on any implementation that follows the rules.
 */
const SCRIPT: readonly Step[] = [
  { method: 'POST', path: '/browsers', json: {}, capture: { br: 'session_id' } },
  { method: 'GET', path: '/browsers/{br}' },
  { method: 'GET', path: '/browsers/br_missing' },
  { method: 'POST', path: '/browsers', json: { timeout_seconds: 5 } },
  { method: 'POST', path: '/browsers', json: { network: { allow: ['10.0.0.0/8'] } } },
  { method: 'POST', path: '/browsers', json: { network: { allow: ['127.0.0.1/33'] } } },
  { method: 'POST', path: '/browsers', json: { profile: { name: 'no-profile' } } },
  { method: 'POST', path: '/browsers', json: { extensions: [{ name: 'no-extension' }] } },
  { method: 'POST', path: '/browsers', json: { invocation_id: 'inv_missing' } },
  { method: 'POST', path: '/invocations', json: { action_name: 'a', app_name: 'b', version: '1' } },
  { method: 'POST', path: '/invocations', json: { action_name: 'a', app_name: 'b', async: 'no' } },
  { method: 'PATCH', path: '/invocations/inv_missing', json: { status: 'succeeded' } },
  { method: 'GET', path: '/invocations/inv_missing/browsers' },
  { method: 'GET', path: '/apps' },
  { method: 'GET', path: '/deployments/dep_missing' },
  { method: 'POST', path: '/browsers/{br}/computer/type', json: { text: 'hi' } },
  { method: 'POST', path: '/browsers/{br}/computer/screenshot', json: {} },
  {
    method: 'POST',
    path: '/browsers/{br}/process/exec',
    json: { command: 'echo', args: ['hi'] },
  },
  {
    method: 'POST',
    path: '/browsers/{br}/process/spawn',
    json: { command: 'sleep', args: ['30'] },
    capture: { proc: 'process_id' },
  },
  { method: 'GET', path: '/browsers/{br}/process/{proc}/status' },
  { method: 'POST', path: '/browsers/{br}/process/{proc}/kill', json: { signal: 'KILL' } },
  { method: 'GET', path: '/browsers/{br}/process/proc_missing/status' },
  { method: 'POST', path: '/browsers/{br}/process/spawn', json: { command: 'true', cwd: '/etc' } },
  {
    method: 'POST',
    path: '/browsers/{br}/process/spawn',
    json: { command: 'true', cwd: '/home/browser/nowhere' },
  },
  {
    method: 'POST',
    path: '/browsers/{br}/fs/watch',
    json: { path: '/home/browser' },
    capture: { watch: 'watch_id' },
  },
  { method: 'POST', path: '/browsers/{br}/fs/watch', json: { path: '/etc' } },
  { method: 'POST', path: '/browsers/{br}/fs/watch', json: { path: '/home/browser/nowhere' } },
  { method: 'DELETE', path: '/browsers/{br}/fs/watch/{watch}' },
  { method: 'DELETE', path: '/browsers/{br}/fs/watch/{watch}' },
  { method: 'GET', path: '/browsers/{br}/replays' },
  { method: 'POST', path: '/browsers/{br}/replays', json: {}, capture: { rp: 'replay_id' } },
  { method: 'POST', path: '/browsers/{br}/replays', json: {} },
  { method: 'POST', path: '/browsers/{br}/replays/{rp}/stop' },
  { method: 'POST', path: '/browsers/{br}/replays/{rp}/stop' },
  { method: 'GET', path: '/browsers/{br}/replays/{rp}' },
  { method: 'GET', path: '/browsers/{br}/replays/rp_missing' },
  {
    method: 'POST',
    path: '/browser_pools',
    json: { size: 1, name: 'diff-pool' },
    capture: { pool: 'id' },
  },
  { method: 'POST', path: '/browser_pools', json: { size: 1, name: 'diff-pool' } },
  { method: 'GET', path: '/browser_pools/no-pool' },
  {
    method: 'POST',
    path: '/browser_pools/diff-pool/acquire',
    json: { acquire_timeout_seconds: 60 },
    capture: { lease: 'session_id' },
  },
  { method: 'DELETE', path: '/browser_pools/diff-pool' },
  { method: 'POST', path: '/browser_pools/diff-pool/release', json: { session_id: '{lease}' } },
  { method: 'POST', path: '/browser_pools/diff-pool/release', json: { session_id: '{lease}' } },
  { method: 'POST', path: '/browser_pools/diff-pool/release', json: { session_id: '{br}' } },
  { method: 'PATCH', path: '/browser_pools/{pool}', json: { size: 2 } },
  { method: 'DELETE', path: '/browser_pools/diff-pool' },
  { method: 'GET', path: '/browser_pools/{pool}' },
  { method: 'POST', path: '/extensions', upload: { name: 'diff-ext' }, capture: { ext: 'id' } },
  { method: 'POST', path: '/extensions', upload: { name: 'diff-ext' } },
  { method: 'GET', path: '/extensions' },
  { method: 'GET', path: '/extensions/diff-ext' },
  { method: 'DELETE', path: '/extensions/{ext}' },
  { method: 'DELETE', path: '/extensions/{ext}' },
  { method: 'DELETE', path: '/browsers/{br}' },
  { method: 'GET', path: '/browsers/{br}' },
  { method: 'POST', path: '/browsers/{br}/computer/type', json: { text: 'x' } },
  { method: 'DELETE', path: '/browsers/{br}' },
];

/** Runs the script against one implementation; gives the shape of every answer. */
async function runScript(target: ContractContext): Promise<Shape[]> {
  const variables: Variables = {};
  const shapes: Shape[] = [];
  for (const step of SCRIPT) {
    const path = fill(step.path, variables);
    let options = {};
    if (step.json !== undefined)
      options = { json: JSON.parse(fill(JSON.stringify(step.json), variables)) };
    if (step.upload) {
      const form = new FormData();
      form.set(
        'file',
        new Blob([Buffer.from(buildExtensionArchive())], { type: 'application/zip' }),
        'x.zip',
      );
      if (step.upload.name) form.set('name', step.upload.name);
      options = { body: form };
    }
    const answer = await target.call(step.method, path, options);
    const json = answer.json as Record<string, unknown> | undefined;
    for (const [name, field] of Object.entries(step.capture ?? {})) {
      const value = json?.[field];
      if (typeof value === 'string') variables[name] = value;
    }
    const contentType = (answer.headers.get('content-type') ?? '').split(';')[0] ?? '';
    const isError = answer.status >= 400;
    shapes.push({
      status: answer.status,
      contentType,
      ...(isError
        ? { code: json?.code, message: unfill(json?.message, variables) }
        : contentType === 'application/json'
          ? { fields: fieldNames(json) }
          : {}),
    });
  }
  return shapes;
}

describe('the fake and the server', () => {
  const test = useTestServer();
  const fake = createFakeService({ token: TEST_TOKEN, allowNetworks: TEST_ALLOW_NETWORKS });
  let fakeShapes: Shape[] = [];
  let serverShapes: Shape[] = [];

  beforeAll(async () => {
    const fakeTarget = new ContractContext({
      baseUrl: fake.url,
      token: TEST_TOKEN,
      readOnlyToken: TEST_TOKEN,
      fetch: fake.fetch,
    });
    fakeShapes = await runScript(fakeTarget);
    serverShapes = await runScript(test.api);
  }, 180_000);
  afterAll(() => fake.close());

  it('answer one script of calls with the same statuses, codes, messages and fields', () => {
    const differences = SCRIPT.flatMap((step, index) => {
      const [fakeShape, serverShape] = [fakeShapes[index], serverShapes[index]];
      return JSON.stringify(fakeShape) === JSON.stringify(serverShape)
        ? []
        : [
            `${step.method} ${step.path}\n  fake:   ${JSON.stringify(fakeShape)}\n  server: ${JSON.stringify(serverShape)}`,
          ];
    });
    expect(differences.join('\n')).toBe('');
    expect(fakeShapes).toHaveLength(SCRIPT.length);
  });

  it('take the script through its error paths, not only its successes', () => {
    const statuses = new Set(serverShapes.map((shape) => shape.status));
    for (const status of [200, 201, 204, 400, 404, 409]) {
      expect(statuses.has(status), `no ${status} in the script`).toBe(true);
    }
  });
});
