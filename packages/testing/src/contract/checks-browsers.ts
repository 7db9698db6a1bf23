import { HEADERS } from '@x/types';
import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser, startRecording, uniqueName } from './resources.js';
import { parseUrl } from './urls.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** `WIDTHxHEIGHT` of a PNG, from its IHDR chunk. */
function pngSize(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return bytes.byteLength < 24 ? 'not a PNG' : `${view.getUint32(16)}x${view.getUint32(20)}`;
}

/** Browsers, typing (4.2), screenshots and replays (4.1). */
export const browserChecks: readonly ContractCheck[] = defineChecks('browsers', {
  'create answers 201 with a session and the defaults': async (context) => {
    const session = await createBrowser(context);
    expect(session.headless === true, 'headless does not default to true');
    expect(
      session.timeout_seconds === 60,
      `timeout_seconds defaults to ${session.timeout_seconds}`,
    );
    const cdp = new URL(session.cdp_ws_url);
    expect(cdp.protocol === 'ws:' || cdp.protocol === 'wss:', `cdp_ws_url is ${cdp.protocol}`);
    expect(cdp.searchParams.get('jwt'), 'cdp_ws_url carries no jwt');
    const base = parseUrl(session.base_url ?? '');
    expect(
      (base?.protocol === 'http:' || base?.protocol === 'https:') &&
        base.pathname === `/browsers/${session.session_id}` &&
        base.search === '' &&
        base.host === cdp.host,
      `base_url is "${session.base_url}", not the session's endpoints on the host of cdp_ws_url`,
    );
  },
  'a running browser is found by its name; names are unique among running browsers': async (
    context,
  ) => {
    const name = uniqueName('agent');
    const session = await createBrowser(context, { name, tags: { team: 'shop' } });
    expect(
      session.name === name && session.tags?.team === 'shop',
      `created ${JSON.stringify({ name: session.name, tags: session.tags })}`,
    );
    const found = context.expectSuccess<{ session_id: string }>(
      await context.call('GET', `/browsers/${name}`),
      'browsers.get',
      200,
    );
    expect(found.session_id === session.session_id, `${name} found ${found.session_id}`);
    context.expectError(
      await context.call('POST', '/browsers', { json: { name } }),
      409,
      'conflict',
    );
    context.expectError(
      await context.call('POST', '/browsers', { json: { name: 'br_abcdefABCDEF' } }),
      400,
      'bad_request',
    );
    const deleted = await context.call('DELETE', `/browsers/${name}`);
    expect(deleted.status === 204, `DELETE by name answered ${deleted.status}`);
    context.expectError(await context.call('GET', `/browsers/${name}`), 404, 'not_found');
    // Ended, its name is free for a new browser.
    await createBrowser(context, { name });
  },
  'update (PATCH) renames, retags, resizes the running browser and sets its time-out': async (
    context,
  ) => {
    const session = await createBrowser(context, { tags: { a: '1' } });
    const id = session.session_id;
    const name = uniqueName('renamed');
    const updated = context.expectSuccess<{
      name?: string;
      tags?: Record<string, string>;
      viewport?: { width: number; height: number };
      timeout_seconds: number;
    }>(
      await context.call('PATCH', `/browsers/${id}`, {
        json: {
          name,
          tags: { b: '2' },
          viewport: { width: 800, height: 600 },
          timeout_seconds: 600,
        },
      }),
      'browsers.update',
      200,
    );
    expect(
      updated.name === name &&
        JSON.stringify(updated.tags) === '{"b":"2"}' &&
        updated.viewport?.width === 800 &&
        updated.viewport.height === 600 &&
        updated.timeout_seconds === 600,
      `the update reads ${JSON.stringify(updated)}`,
    );
    const shot = await context.call('POST', `/browsers/${id}/computer/screenshot`, { json: {} });
    expect(
      pngSize(shot.bytes) === '800x600',
      `a screenshot after the resize is ${pngSize(shot.bytes)}`,
    );
    const other = await createBrowser(context);
    context.expectError(
      await context.call('PATCH', `/browsers/${other.session_id}`, { json: { name } }),
      409,
      'conflict',
    );
    const cleared = context.expectSuccess<{ name?: string; tags?: unknown }>(
      await context.call('PATCH', `/browsers/${name}`, { json: { name: '', tags: {} } }),
      'browsers.update',
      200,
    );
    expect(
      cleared.name === undefined && cleared.tags === undefined,
      `clearing left ${JSON.stringify(cleared)}`,
    );
    for (const json of [
      { tags: Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`k${index}`, 'v'])) },
      { viewport: { width: 10, height: 10 } },
      { timeout_seconds: 1 },
      { color: 'red' },
    ]) {
      context.expectError(
        await context.call('PATCH', `/browsers/${id}`, { json }),
        400,
        'bad_request',
      );
    }
    context.expectError(
      await context.call('PATCH', '/browsers/br_nothere', { json: { timeout_seconds: 60 } }),
      404,
      'not_found',
    );
  },
  'a resize while recording is 409 unless forced; forced, recording goes on in a new replay':
    async (context) => {
      const { id, replayId } = await startRecording(context);
      context.expectError(
        await context.call('PATCH', `/browsers/${id}`, {
          json: { viewport: { width: 640, height: 480 } },
        }),
        409,
        'conflict',
      );
      context.expectSuccess(
        await context.call('PATCH', `/browsers/${id}`, {
          json: { viewport: { width: 640, height: 480, force: true } },
        }),
        'browsers.update',
        200,
      );
      const replays = context.expectSuccess<{ replay_id: string; finished_at?: string }[]>(
        await context.call('GET', `/browsers/${id}/replays`),
        'browsers.replays.list',
        200,
      );
      expect(
        replays.length === 2 &&
          replays[0]?.replay_id === replayId &&
          replays[0].finished_at !== undefined &&
          replays[1]?.finished_at === undefined,
        `after a forced resize the replays read ${JSON.stringify(replays)}`,
      );
      const next = replays[1]?.replay_id ?? '';
      context.expectSuccess(
        await context.call('POST', `/browsers/${id}/replays/${next}/stop`),
        'browsers.replays.stop',
        200,
      );
    },
  'get, list and delete a browser; a deleted browser keeps deleted_at and takes no calls': async (
    context,
  ) => {
    const session = await createBrowser(context);
    const id = session.session_id;
    context.expectSuccess(await context.call('GET', `/browsers/${id}`), 'browsers.get', 200);
    const list = context.expectSuccess<{ session_id: string }[]>(
      await context.call('GET', '/browsers'),
      'browsers.list',
      200,
    );
    expect(
      list.some((entry) => entry.session_id === id),
      'the list lacks the new browser',
    );
    context.expectSuccess(await context.call('DELETE', `/browsers/${id}`), 'browsers.delete', 204);
    const deleted = context.expectSuccess<{ deleted_at?: string }>(
      await context.call('GET', `/browsers/${id}`),
      'browsers.get',
      200,
    );
    expect(deleted.deleted_at, 'a deleted browser has no deleted_at');
    const after = context.expectSuccess<{ session_id: string }[]>(
      await context.call('GET', '/browsers'),
      'browsers.list',
      200,
    );
    expect(
      !after.some((entry) => entry.session_id === id),
      'the list still has the deleted browser',
    );
    context.expectError(await context.call('DELETE', `/browsers/${id}`), 404, 'not_found');
    context.expectError(
      await context.call('POST', `/browsers/${id}/computer/type`, { json: { text: 'a' } }),
      404,
      'not_found',
    );
  },
  'a timeout_seconds out of bounds is 400': async (context) => {
    context.expectError(
      await context.call('POST', '/browsers', { json: { timeout_seconds: 5 } }),
      400,
      'bad_request',
    );
  },
  'an unknown browser is 404': async (context) => {
    context.expectError(await context.call('GET', '/browsers/br_doesnotexist'), 404, 'not_found');
  },
  'type (4.2) answers 204 for text, empty text and a delay': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const type = (json: unknown) => context.call('POST', `/browsers/${id}/computer/type`, { json });
    context.expectSuccess(await type({ text: 'héllo 世界 👋\n\t' }), 'browsers.computer.type', 204);
    context.expectSuccess(await type({ text: '' }), 'browsers.computer.type', 204);
    context.expectSuccess(await type({ text: 'ab', delay: 5 }), 'browsers.computer.type', 204);
  },
  'type (4.2) refuses a negative delay, missing text and text over the limits with 400': async (
    context,
  ) => {
    const { session_id: id } = await createBrowser(context);
    const type = (json: unknown) => context.call('POST', `/browsers/${id}/computer/type`, { json });
    const negative = await type({ text: 'a', delay: -1 });
    context.expectError(negative, 400, 'bad_request');
    expect(negative.text.includes('delay'), `the 400 does not name delay: ${negative.text}`);
    context.expectError(await type({ delay: 1 }), 400, 'bad_request');
    context.expectError(await type({ text: 'a'.repeat(100_001) }), 400, 'bad_request');
    context.expectError(await type({ text: 'a'.repeat(3001), delay: 100 }), 400, 'bad_request');
  },
  'screenshot answers a PNG of the viewport, or of a region': async (context) => {
    const { session_id: id } = await createBrowser(context, {
      viewport: { width: 800, height: 600 },
    });
    const answer = await context.call('POST', `/browsers/${id}/computer/screenshot`, { json: {} });
    context.expectSuccess(answer, 'browsers.computer.screenshot', 200);
    expect(
      PNG_SIGNATURE.every((byte, index) => answer.bytes[index] === byte),
      'the body is not a PNG',
    );
    expect(
      pngSize(answer.bytes) === '800x600',
      `the viewport screenshot is ${pngSize(answer.bytes)}, not 800x600`,
    );
    const region = await context.call('POST', `/browsers/${id}/computer/screenshot`, {
      json: { region: { x: 10, y: 20, width: 120, height: 40 } },
    });
    context.expectSuccess(region, 'browsers.computer.screenshot', 200);
    expect(
      pngSize(region.bytes) === '120x40',
      `the region screenshot is ${pngSize(region.bytes)}, not 120x40`,
    );
  },
  'a replay framerate outside 1–30 is 400': async (context) => {
    const { session_id: id } = await createBrowser(context);
    context.expectError(
      await context.call('POST', `/browsers/${id}/replays`, { json: { framerate: 60 } }),
      400,
      'bad_request',
    );
  },
  'a replay starts (201), is one at a time (409), downloads 202 while recording, stops (4.1) idempotently and downloads an MP4':
    async (context) => {
      const { id, replayId } = await startRecording(context);
      const replayPath = `/browsers/${id}/replays/${replayId}`;
      context.expectError(
        await context.call('POST', `/browsers/${id}/replays`, { json: {} }),
        409,
        'conflict',
      );
      const pending = await context.call('GET', replayPath);
      context.expectSuccess(pending, 'browsers.replays.download', 202);
      expect(pending.headers.get(HEADERS.retryAfter), 'a 202 download has no Retry-After');
      const list = context.expectSuccess<{ replay_id: string }[]>(
        await context.call('GET', `/browsers/${id}/replays`),
        'browsers.replays.list',
        200,
      );
      expect(
        list.some((replay) => replay.replay_id === replayId),
        'the list lacks the replay',
      );
      const stopped = context.expectSuccess<{ finished_at?: string }>(
        await context.call('POST', `${replayPath}/stop`),
        'browsers.replays.stop',
        200,
      );
      expect(stopped.finished_at, 'a stopped replay has no finished_at');
      const again = context.expectSuccess<{ finished_at?: string }>(
        await context.call('POST', `${replayPath}/stop`),
        'browsers.replays.stop',
        200,
      );
      expect(again.finished_at === stopped.finished_at, 'stopping again changed finished_at');
      const video = await context.call('GET', replayPath);
      context.expectSuccess(video, 'browsers.replays.download', 200);
      expect(
        new TextDecoder().decode(video.bytes.subarray(4, 8)) === 'ftyp',
        'the video is not an MP4',
      );
    },
  'an unknown replay is 404': async (context) => {
    const { session_id: id } = await createBrowser(context);
    context.expectError(
      await context.call('POST', `/browsers/${id}/replays/rp_nothere/stop`),
      404,
      'not_found',
    );
    context.expectError(
      await context.call('GET', `/browsers/${id}/replays/rp_nothere`),
      404,
      'not_found',
    );
  },
});
