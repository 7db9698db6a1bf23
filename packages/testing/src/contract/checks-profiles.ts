import type { BrowserSession, Profile } from '@x/types';
import { type ContractCheck, defineChecks } from './check.js';
import { at } from './checks-files.js';
import { type ContractContext, expect } from './context.js';
import { createBrowser, uniqueName } from './resources.js';

/** A file inside what a profile keeps (extension storage), that a browser leaves alone. */
const MARKER = '/home/browser/.config/chromium/Default/Local Extension Settings/xb-contract/marker';

/** Creates a profile for a check; it is deleted afterwards. */
async function createProfile(context: ContractContext, name = uniqueName('prof')) {
  const answer = await context.call('POST', '/profiles', { json: { name } });
  const profile = context.expectSuccess<Profile>(answer, 'profiles.create', 201);
  context.defer(() => context.call('DELETE', `/profiles/${profile.id}`));
  return profile;
}

/** Profiles: records, pages, one writer, state saved by one session and loaded by the next. */
export const profileChecks: readonly ContractCheck[] = defineChecks('profiles', {
  'a profile is made, found by id or name, renamed, listed by page, and deleted': async (
    context,
  ) => {
    const prefix = uniqueName('prof');
    const first = await createProfile(context, `${prefix}-a`);
    await createProfile(context, `${prefix}-b`);
    expect(
      first.updated_at === undefined && first.last_used_at === undefined,
      `a new profile has updated_at or last_used_at: ${JSON.stringify(first)}`,
    );
    context.expectError(
      await context.call('POST', '/profiles', { json: { name: `${prefix}-a` } }),
      409,
      'conflict',
    );
    for (const key of [first.id, `${prefix}-a`]) {
      const found = context.expectSuccess<Profile>(
        await context.call('GET', `/profiles/${key}`),
        'profiles.get',
        200,
      );
      expect(found.id === first.id, `GET /profiles/${key} gave ${found.id}`);
    }
    const page = await context.call('GET', `/profiles?query=${prefix}&limit=1`);
    const items = context.expectSuccess<Profile[]>(page, 'profiles.list', 200);
    expect(
      items.length === 1 &&
        page.headers.get('x-has-more') === 'true' &&
        page.headers.get('x-next-offset') === '1',
      `the first page of 2 with limit=1: ${items.length} items, X-Has-More ${page.headers.get('x-has-more')}, X-Next-Offset ${page.headers.get('x-next-offset')}`,
    );
    const last = await context.call('GET', `/profiles?query=${prefix}&limit=1&offset=1`);
    context.expectSuccess(last, 'profiles.list', 200);
    expect(last.headers.get('x-has-more') === 'false', 'the last page says X-Has-More: true');
    const renamed = context.expectSuccess<Profile>(
      await context.call('PATCH', `/profiles/${first.id}`, { json: { name: `${prefix}-c` } }),
      'profiles.update',
      200,
    );
    expect(renamed.name === `${prefix}-c`, `the rename gave ${renamed.name}`);
    context.expectSuccess(
      await context.call('DELETE', `/profiles/${first.id}`),
      'profiles.delete',
      204,
    );
    context.expectError(await context.call('GET', `/profiles/${first.id}`), 404, 'not_found');
    context.expectError(await context.call('GET', '/profiles?limit=101'), 400, 'bad_request');
  },
  'a session saving into a profile hands its state to the next; one writer at a time': async (
    context,
  ) => {
    const profile = await createProfile(context);
    const writer = await createBrowser(context, {
      profile: { id: profile.id, save_changes: true },
    });
    expect(
      writer.profile?.id === profile.id && writer.profile.save_changes === true,
      `the session shows the profile as ${JSON.stringify(writer.profile)}`,
    );
    const second = await context.call('POST', '/browsers', {
      json: { profile: { name: profile.name, save_changes: true } },
    });
    context.expectError(second, 409, 'conflict');
    expect(
      second.text.includes(writer.session_id),
      `the 409 does not name the holder: ${second.text}`,
    );
    context.expectError(await context.call('DELETE', `/profiles/${profile.id}`), 409, 'conflict');
    context.expectSuccess(
      await context.call('PUT', `/browsers/${writer.session_id}/fs/write_file?${at(MARKER)}`, {
        body: 'logged in',
        headers: { 'content-type': 'application/octet-stream' },
      }),
      'browsers.fs.writeFile',
      201,
    );
    context.expectSuccess(
      await context.call('DELETE', `/browsers/${writer.session_id}`),
      'browsers.delete',
      204,
    );
    const saved = context.expectSuccess<Profile>(
      await context.call('GET', `/profiles/${profile.id}`),
      'profiles.get',
      200,
    );
    expect(
      saved.updated_at !== undefined && saved.last_used_at !== undefined,
      `after a save: ${JSON.stringify(saved)}`,
    );
    const reader: BrowserSession = await createBrowser(context, { profile: { id: profile.id } });
    expect(reader.profile?.save_changes === false, 'a reading session shows save_changes true');
    const read = await context.call(
      'GET',
      `/browsers/${reader.session_id}/fs/read_file?${at(MARKER)}`,
    );
    context.expectSuccess(read, 'browsers.fs.readFile', 200);
    expect(read.text === 'logged in', `the next session reads "${read.text}"`);
  },
  'a download is a tar, or a zstd-compressed tar': async (context) => {
    const profile = await createProfile(context);
    const tar = await context.call('GET', `/profiles/${profile.id}/download`);
    context.expectSuccess(tar, 'profiles.download', 200);
    expect(
      tar.bytes.byteLength >= 1024 && tar.bytes.byteLength % 512 === 0,
      `an empty profile's tar is ${tar.bytes.byteLength} bytes`,
    );
    const zst = await context.call('GET', `/profiles/${profile.id}/download?format=tar.zst`);
    context.expectSuccess(zst, 'profiles.download', 200);
    const magic = [...zst.bytes.subarray(0, 4)];
    expect(
      magic.join() === [0x28, 0xb5, 0x2f, 0xfd].join(),
      `tar.zst does not start with the zstd magic: ${magic}`,
    );
    context.expectError(
      await context.call('GET', `/profiles/${profile.id}/download?format=zip`),
      400,
      'bad_request',
    );
  },
  'an unknown profile is 404, and a pool may not save into one': async (context) => {
    context.expectError(
      await context.call('POST', '/browsers', { json: { profile: { name: uniqueName('no') } } }),
      404,
      'not_found',
    );
    const profile = await createProfile(context);
    context.expectError(
      await context.call('POST', '/browser_pools', {
        json: { size: 1, profile: { id: profile.id, save_changes: true } },
      }),
      400,
      'bad_request',
    );
  },
});
