import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';
import { scratchFolder, xb } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true, token: ['test-token', 'profile-token'] });

describe('config', () => {
  it('saves settings in a profile, in a 0600 file, and never prints the token', async () => {
    const home = scratchFolder();
    const env = { XDG_CONFIG_HOME: home };
    expect(
      (await xb(['config', 'set', 'base_url', fake.url, '--profile', 'local'], { env })).code,
    ).toBe(0);
    const token = await xb(['config', 'set', 'token', '-', '--profile', 'local'], {
      env,
      stdin: 'profile-token\n',
    });
    expect(token.stdout).toBe(
      `✓ Saved token in profile local (${join(home, 'xb', 'config.json')}).\n`,
    );
    const path = join(home, 'xb', 'config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      profiles: { local: { base_url: fake.url, token: 'profile-token' } },
    });

    const listed = await xb(['config', 'list', '--profile', 'local'], { env });
    expect(listed.stdout).toContain(`${fake.url} (config)`);
    expect(listed.stdout).toContain('(set, hidden) (config)');
    expect(listed.stdout + listed.stderr).not.toContain('profile-token');
    expect((await xb(['config', 'get', 'token', '--profile', 'local'], { env })).stdout).toBe(
      '(set, hidden)\n',
    );
    expect(
      (await xb(['config', 'get', 'base_url', '--profile', 'local', '--json'], { env })).stdout,
    ).toBe(`${JSON.stringify({ key: 'base_url', value: fake.url })}\n`);

    // The profile's settings reach the service: XB_PROFILE picks it.
    const viaProfile = await xb(['browsers', 'list', '--json'], {
      env: { ...env, XB_PROFILE: 'local' },
      overHttp: true,
    });
    expect(viaProfile).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(fake.journal.last('browsers.list')?.headers.authorization).toBe('Bearer profile-token');
  });

  it('takes flags over env over the profile over defaults', async () => {
    const home = scratchFolder();
    const env = { XDG_CONFIG_HOME: home };
    await xb(['config', 'set', 'base_url', 'http://127.0.0.1:1'], { env });
    const fromFile = await xb(['config', 'get', 'base_url'], { env });
    expect(fromFile.stdout).toBe('http://127.0.0.1:1\n');
    expect(
      (
        await xb(['config', 'get', 'base_url'], {
          env: { ...env, XB_BASE_URL: 'http://127.0.0.2:2' },
        })
      ).stdout,
    ).toBe('http://127.0.0.2:2\n');
    expect(
      (
        await xb(['config', 'get', 'base_url', '--base-url', 'http://127.0.0.3:3'], {
          env: { ...env, XB_BASE_URL: 'http://127.0.0.2:2' },
        })
      ).stdout,
    ).toBe('http://127.0.0.3:3\n');
    expect(
      (await xb(['config', 'get', 'base_url'], { env: { XDG_CONFIG_HOME: scratchFolder() } }))
        .stdout,
    ).toBe('http://127.0.0.1:8080\n');
    const listed = await xb(['config', 'list', '--json'], {
      env: { ...env, XB_TOKEN: 'secret-env-token' },
    });
    expect(JSON.parse(listed.stdout)).toMatchObject({
      base_url: { value: 'http://127.0.0.1:1', from: 'config' },
      token: { value: '(set, hidden)', from: 'env' },
    });
    expect(listed.stdout).not.toContain('secret-env-token');
  });

  it('refuses unknown keys, bad URLs, unknown profiles and a broken file with exit 2', async () => {
    const home = scratchFolder();
    const env = { XDG_CONFIG_HOME: home };
    expect((await xb(['config', 'set', 'colour', 'x'], { env })).stderr).toBe(
      'error: Unknown config key "colour": use one of base_url, token, project.\n',
    );
    expect((await xb(['config', 'set', 'base_url', 'not a url'], { env })).code).toBe(2);
    expect((await xb(['config', 'get', 'base_url', '--profile', 'nope'], { env })).stderr).toMatch(
      /No profile "nope".*xb config set base_url <url> --profile nope/,
    );
    mkdirSync(join(home, 'xb'), { recursive: true });
    writeFileSync(join(home, 'xb', 'config.json'), '{ broken');
    const broken = await xb(['config', 'list'], { env });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/is not valid JSON: fix it or delete it/);
  });

  it('without a token, says how to give one (exit 2) and sends nothing', async () => {
    const result = await xb(['browsers', 'list'], { env: { XB_BASE_URL: fake.url } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: No token: pass --token, set XB_TOKEN, or save one with `xb config set token -` (reads it from stdin).\n',
    );
    fake.journal.assertNotCalled('browsers.list');
  });
});
