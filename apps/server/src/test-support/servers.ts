import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContractContext, deployContractApp } from '@x/testing';
import type { ExecResult } from '@x/types';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { readConfig, type ServerConfig } from '../config.js';
import { type RunningServer, startServer } from '../server.js';
import { postgresBin } from './postgres-cluster.js';
import { assertInPostgresRun } from './store-runs.js';

const PACKAGE_FOLDER = fileURLToPath(new URL('../../', import.meta.url));
/** Test files already found to run on PostgreSQL too: each is read once, not per server. */
const filesInPostgresRun = new Set<string>();

/** The token test servers accept. */
export const TEST_TOKEN = 'server-test-token';

/**
 * The private destinations test servers open to their sessions: the host's loopback, where the
 * tests serve the pages their browsers load.
 */
export const TEST_ALLOW_NETWORKS = '127.0.0.1/32';

/**
 * Where a test server keeps its records: the SQLite file of its data directory, or, when the
 * suite runs on PostgreSQL (`XB_TEST_POSTGRES_URL`, set by the run's global setup), a database
 * of the run's cluster named after the data directory, made the first time: a server started
 * again on the same data directory finds its records there, as it would in its SQLite file.
 */
export function testStoreEnv(dataDir: string | undefined): Record<string, string> {
  // The one way to the suite's store: a file the PostgreSQL run leaves out must not take it.
  const path = expect.getState().testPath;
  if (path !== undefined && !filesInPostgresRun.has(path)) {
    assertInPostgresRun(relative(PACKAGE_FOLDER, path), readFileSync(path, 'utf8'));
    filesInPostgresRun.add(path);
  }
  const cluster = process.env.XB_TEST_POSTGRES_URL;
  if (process.env.XB_TEST_STORE === 'postgresql' && !cluster)
    throw new Error('XB_TEST_STORE=postgresql, but the run started no cluster (its global setup)');
  if (!cluster || dataDir === undefined) return {};
  const name = `xb_${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`;
  const psql = `${postgresBin()}/psql`;
  const exists = execFileSync(
    psql,
    ['-qtA', '-d', cluster, '-c', `SELECT 1 FROM pg_database WHERE datname = '${name}'`],
    { encoding: 'utf8' },
  );
  if (exists.trim() !== '1')
    execFileSync(psql, ['-q', '-d', cluster, '-c', `CREATE DATABASE ${name}`], { stdio: 'ignore' });
  return { XB_DATABASE_URL: cluster.replace(/\/postgres$/, `/${name}`) };
}

/** A test server's configuration: `readConfig`, its records on the engine the suite runs on. */
export function testConfig(env: Record<string, string | undefined>): ServerConfig {
  // A test's browsers are its own: the default capacity follows the machine's cores, which a
  // test does not measure, so a test that asks for none gets room for what it starts.
  // No spare browsers unless a test asks: a test counts the browsers and processes it made.
  return readConfig({
    XB_MAX_BROWSERS: '16',
    XB_SPARE_BROWSERS: '0',
    ...(env.XB_DATABASE_URL === undefined ? testStoreEnv(env.XB_DATA_DIR) : {}),
    ...env,
  });
}

/** A server for the tests of one file: started before them in a fresh data directory, closed after. */
export function useTestServer(env: Record<string, string> = {}) {
  const handle = {
    server: undefined as unknown as RunningServer,
    api: undefined as unknown as ContractContext,
    dataDir: '',
  };
  beforeAll(async () => {
    handle.dataDir = mkdtempSync(join(tmpdir(), 'xb-server-test-'));
    handle.server = await startServer(
      testConfig({
        XB_ALLOW_NETWORKS: TEST_ALLOW_NETWORKS,
        XB_DATA_DIR: handle.dataDir,
        XB_PORT: '0',
        XB_TOKENS: TEST_TOKEN,
        ...env,
      }),
      pino({ level: process.env.XB_TEST_LOG ?? 'silent' }),
    );
    handle.api = new ContractContext({
      baseUrl: handle.server.url,
      token: TEST_TOKEN,
      readOnlyToken: TEST_TOKEN,
      timeoutMs: 30_000,
    });
  });
  afterAll(() => handle.server?.close());
  return handle;
}

/** A JSON call's answer: its status and its parsed body (undefined when empty). */
export interface JsonAnswer<T> {
  readonly status: number;
  readonly json: T;
}

/**
 * A function calling the API of the server at `url()` with a JSON body, as `token` (or, per
 * call, another): its status and parsed answer.
 */
export function jsonCaller(url: () => string, token = TEST_TOKEN) {
  return async <T>(
    method: string,
    path: string,
    body?: unknown,
    as = token,
  ): Promise<JsonAnswer<T>> => {
    const response = await fetch(`${url()}${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as T };
  };
}

/** What a shell script run on an instance did: its exit code and its output as text. */
export interface ShellResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A function running `sh -c script` on a browser's instance through the API of the server at
 * `url()` (a sandboxed process, as any caller runs one); a call that is not 200 throws.
 */
export function shellRunner(url: () => string) {
  const call = jsonCaller(url);
  const text = (base64: string) => Buffer.from(base64, 'base64').toString();
  return async (browser: string, script: string): Promise<ShellResult> => {
    const { status, json } = await call<ExecResult>('POST', `/browsers/${browser}/process/exec`, {
      command: 'sh',
      args: ['-c', script],
    });
    if (status !== 200) throw new Error(`exec on ${browser} answered ${status}`);
    return {
      exitCode: json.exit_code,
      stdout: text(json.stdout_b64),
      stderr: text(json.stderr_b64),
    };
  };
}

/** A page on loopback with an origin of its own (pages there have storage, content scripts run). */
export function useSite() {
  const site = { url: '' };
  const page = createServer((_request, response) => response.end('<p>shop</p>'));
  beforeAll(async () => {
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    site.url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => page.close(() => resolve())));
  return site;
}

/**
 * The contract suite's app deployed on the server at `url` (in `project`, when given) under a
 * version of its own, running; `remove()` deletes it.
 */
export async function deployTestApp(url: string, project?: string) {
  const context = new ContractContext({
    baseUrl: url,
    token: TEST_TOKEN,
    readOnlyToken: TEST_TOKEN,
    timeoutMs: 60_000,
  });
  const headers = project === undefined ? undefined : { 'x-kernel-project-id': project };
  const app = await deployContractApp(context, headers ? { headers } : {});
  return {
    ...app,
    /** The body of an async invocation of its waiting action (`contract`). */
    invocation: (action = 'contract') => ({
      app_name: app.app,
      version: app.version,
      action_name: action,
      async: true,
    }),
    remove: () => context.cleanUp(),
  };
}
