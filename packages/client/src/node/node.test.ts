import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../errors/index.js';
import { startRecordingServer } from '../test-support/recording-server.js';
import * as samples from '../test-support/samples.js';
import { createClient } from './index.js';

afterEach(() => vi.unstubAllEnvs());

describe('createClient from @x/client/node', () => {
  it('reads the token and base URL from XB_TOKEN and XB_BASE_URL', async () => {
    const server = await startRecordingServer();
    server.respond('GET', '/browsers', { status: 200, json: [samples.session] });
    vi.stubEnv('XB_TOKEN', 'tok_env');
    vi.stubEnv('XB_BASE_URL', server.url);
    await expect((await createClient().browsers.list()).items).toHaveLength(1);
    expect(server.calls[0]?.headers.authorization).toBe('Bearer tok_env');
    await server.close();
  });

  it('sends the project of XB_PROJECT on every call, unless one is given', async () => {
    const server = await startRecordingServer();
    server.respond('GET', '/browsers', { status: 200, json: [] });
    vi.stubEnv('XB_TOKEN', 'tok_env');
    vi.stubEnv('XB_BASE_URL', server.url);
    vi.stubEnv('XB_PROJECT', 'staging');
    await createClient().browsers.list();
    await createClient({ project: 'prod' }).browsers.list();
    vi.stubEnv('XB_PROJECT', '');
    await createClient().browsers.list();
    expect(server.calls.map((call) => call.headers['x-kernel-project-id'])).toEqual([
      'staging',
      'prod',
      undefined,
    ]);
    await server.close();
  });

  it('lets options win over the environment', () => {
    vi.stubEnv('XB_TOKEN', '');
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1' })).toThrow(ConfigurationError);
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', token: 't' })).not.toThrow();
  });

  it('fails at construction, naming XB_TOKEN, when no token is anywhere', () => {
    vi.stubEnv('XB_TOKEN', '');
    vi.stubEnv('XB_BASE_URL', 'http://127.0.0.1:1');
    expect(() => createClient()).toThrow(/XB_TOKEN/);
  });
});
