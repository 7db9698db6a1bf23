import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useFakeService } from '@x/testing/vitest';
import { BrowserSessionSchema, ProfileSchema, ProxySchema } from '@x/types';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { onlyJson, scratchFolder, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });
const COOKIES = '/home/browser/.config/chromium/Default/Cookies';

describe.each(TRANSPORTS)('profile and proxy commands (%s)', (_, overHttp) => {
  const { run } = xbAgainst(fake, overHttp);

  it('profiles: create, load with save-changes, list, get, download and delete', async () => {
    const created = v.parse(
      ProfileSchema,
      onlyJson((await run(['profiles', 'create', '--name', 'shop', '--json'])).stdout),
    );
    // --profile-name is the browser profile; --profile stays the config profile.
    const flags = ['browsers', 'create', '--profile-name', 'shop', '--save-changes', '--json'];
    const configProfile = await run([...flags, '--profile', 'staging']);
    expect(configProfile.stderr).toMatch(/^error: No profile "staging" in .*config\.json/);
    const answer = await run(flags);
    expect(answer.stderr).toBe('');
    const session = v.parse(BrowserSessionSchema, onlyJson(answer.stdout));
    expect(session.profile).toMatchObject({ id: created.id, name: 'shop', save_changes: true });
    expect((await run(['browsers', 'get', session.session_id])).stdout).toMatch(
      /^profile +shop \(saves changes\)$/m,
    );
    fake.file(session.session_id, COOKIES, 'sid=1');
    expect((await run(['browsers', 'delete', session.session_id])).code).toBe(0);
    expect((await run(['profiles', 'list', '--limit', '5'])).stdout).toMatch(
      /^ID +NAME +CREATED +SAVED +LAST USED\nprof_\w+ +shop /,
    );
    expect((await run(['profiles', 'get', 'shop'])).stdout).toMatch(/^saved +\d{4}-/m);
    const folder = scratchFolder();
    const saved = await run(['profiles', 'download', 'shop', '-o', join(folder, 'shop.tar')]);
    expect(saved.stdout).toMatch(/^✓ Saved the profile to .*shop\.tar \(\d+ bytes\)\.\n$/);
    expect(readFileSync(join(folder, 'shop.tar')).includes('Default/Cookies')).toBe(true);
    expect((await run(['profiles', 'delete', 'shop'])).stdout).toBe('✓ Deleted profile shop.\n');
    const missing = await run(['profiles', 'get', 'shop']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/No profile "shop"/);
  });

  it('proxies: a password from stdin never printed; create, check, list, update, delete', async () => {
    const created = await run(
      [
        'proxies',
        'create',
        '--type',
        'custom',
        '--name',
        'office',
        '--host',
        'proxy.test',
        '--port',
        '3128',
        '--username',
        'agent',
        '--password',
        '-',
      ],
      { stdin: 'hunter2-secret\n' },
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^password +set$/m);
    expect(created.stdout).not.toContain('hunter2');
    const [proxy] = [...fake.state.proxies.values()];
    expect(proxy?.config).toEqual({
      host: 'proxy.test',
      port: 3128,
      username: 'agent',
      has_password: true,
    });
    const id = proxy?.id as string;
    expect((await run(['proxies', 'check', id])).stdout).toMatch(/^exit_ip +192\.0\.2\.1$/m);
    expect((await run(['proxies', 'list'])).stdout).toMatch(
      /^ID +NAME +PROXY +USER +STATUS +EXIT IP\npx_\w+ +office +http:\/\/proxy\.test:3128 +agent +available +192\.0\.2\.1/,
    );
    const updated = v.parse(
      ProxySchema,
      onlyJson((await run(['proxies', 'update', id, '--port', '3129', '--json'])).stdout),
    );
    expect(updated.config.port).toBe(3129);
    const residential = await run([
      'proxies',
      'create',
      '--type',
      'residential',
      '--host',
      'h',
      '--port',
      '1',
    ]);
    expect(residential.code).not.toBe(0);
    expect(residential.stderr).toMatch(/operator provides/);
    const browser = await run(['browsers', 'create', '--proxy-id', id, '--json']);
    expect(v.parse(BrowserSessionSchema, onlyJson(browser.stdout)).proxy_id).toBe(id);
    expect((await run(['proxies', 'delete', id])).code).not.toBe(0);
    expect((await run(['proxies', 'delete', id, '--force'])).stdout).toBe(
      `✓ Deleted proxy ${id}.\n`,
    );
  });
});
