import type {
  BrowserPool,
  BrowserSession,
  Extension,
  Invocation,
  OperationName,
  Replay,
} from '@x/types';
import { buildExtensionArchive } from '../fixtures/extension-archive.js';
import { type ContractCheck, defineChecks } from './check.js';
import { type ContractContext, expect } from './context.js';
import {
  createBrowser,
  createPool,
  deployContractApp,
  invoke,
  uniqueName,
  untilRunning,
  uploadExtension,
} from './resources.js';

/** Most pages a walk reads before it calls the list endless. */
const MAX_PAGES = 500;

/**
 * Reads a list page by page, `limit` at a time, following `X-Next-Offset` until `X-Has-More`
 * says false, checking each page's headers on the way. Gives every record read, in order.
 */
async function walk<T>(
  context: ContractContext,
  path: string,
  operation: OperationName,
  limit: number,
): Promise<T[]> {
  const records: T[] = [];
  let offset = 0;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const url = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&offset=${offset}`;
    const answer = await context.call('GET', url);
    const items = context.expectSuccess<T[]>(answer, operation, 200);
    const hasMore = answer.headers.get('x-has-more');
    const next = answer.headers.get('x-next-offset');
    expect(items.length <= limit, `GET ${url} gave ${items.length} records, past limit=${limit}`);
    records.push(...items);
    if (hasMore === 'false') {
      expect(next === null, `GET ${url}: X-Has-More false with X-Next-Offset ${next}`);
      return records;
    }
    expect(hasMore === 'true', `GET ${url}: X-Has-More is ${hasMore}, not true or false`);
    expect(
      items.length === limit && next === String(offset + limit),
      `GET ${url}: ${items.length} records, X-Has-More true, X-Next-Offset ${next} (expected ${offset + limit})`,
    );
    offset += limit;
  }
  throw new Error(`GET ${path} did not end within ${MAX_PAGES} pages`);
}

/** Checks a walk gave exactly `expected` (by key), in that order. */
function expectRecords<T>(walked: T[], expected: string[], key: (record: T) => string, of: string) {
  const got = walked.map(key);
  expect(
    got.length === expected.length && got.every((value, index) => value === expected[index]),
    `${of}: walked ${got.join(', ')}; expected ${expected.join(', ')}`,
  );
}

/** Every list answers a page at a time, and each filters as decided. */
export const listChecks: readonly ContractCheck[] = defineChecks('lists', {
  'every list refuses a page out of range': async (context) => {
    for (const path of [
      '/browsers',
      '/browser_pools',
      '/extensions',
      '/invocations',
      '/profiles',
      '/proxies',
    ]) {
      for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=two']) {
        context.expectError(await context.call('GET', `${path}?${query}`), 400, 'bad_request');
      }
    }
    context.expectError(await context.call('GET', '/browsers?status=gone'), 400, 'bad_request');
    context.expectError(
      await context.call('GET', '/invocations?status=paused'),
      400,
      'bad_request',
    );
  },
  'invocations are listed by page, and by status, app and action': async (context) => {
    const app = uniqueName('app');
    const deployed = await deployContractApp(context, { app });
    const made: Invocation[] = [];
    for (const action of ['build', 'build', 'ship']) {
      const answer = await invoke(context, deployed, { action_name: action });
      const invocation = context.expectSuccess<Invocation>(answer, 'invocations.create', 202);
      made.push(invocation);
      context.defer(() =>
        context.call('PATCH', `/invocations/${invocation.id}`, { json: { status: 'failed' } }),
      );
    }
    // Queued at first, each runs soon after.
    await untilRunning(context, made);
    const ids = made.map((invocation) => invocation.id);
    const byId = (invocation: Invocation) => invocation.id;
    for (const limit of [1, 2, 3]) {
      const walked = await walk<Invocation>(
        context,
        `/invocations?app_name=${app}`,
        'invocations.list',
        limit,
      );
      expectRecords(walked, ids, byId, `invocations of ${app}, limit=${limit}`);
    }
    const builds = await walk<Invocation>(
      context,
      `/invocations?app_name=${app}&action_name=build`,
      'invocations.list',
      20,
    );
    expectRecords(builds, ids.slice(0, 2), byId, 'action_name=build');
    context.expectSuccess(
      await context.call('PATCH', `/invocations/${ids[1]}`, { json: { status: 'failed' } }),
      'invocations.update',
      200,
    );
    const failed = await walk<Invocation>(
      context,
      `/invocations?app_name=${app}&status=failed`,
      'invocations.list',
      20,
    );
    expectRecords(failed, [ids[1] as string], byId, 'status=failed');
    const running = await walk<Invocation>(
      context,
      `/invocations?app_name=${app}&status=running`,
      'invocations.list',
      20,
    );
    expectRecords(running, [ids[0] as string, ids[2] as string], byId, 'status=running');
  },
  'extensions and pools are listed by page, by name and by query': async (context) => {
    const prefix = uniqueName('list');
    const extensions: Extension[] = [];
    for (const suffix of ['a', 'b', 'c']) {
      const { answer, extension } = await uploadExtension(
        context,
        buildExtensionArchive(),
        `${prefix}-ext-${suffix}`,
      );
      context.expectSuccess(answer, 'extensions.upload', 201);
      if (extension) extensions.push(extension);
    }
    const extensionIds = extensions.map((extension) => extension.id);
    for (const limit of [1, 2]) {
      const walked = await walk<Extension>(
        context,
        `/extensions?query=${prefix.toUpperCase()}-EXT`,
        'extensions.list',
        limit,
      );
      expectRecords(walked, extensionIds, (e) => e.id, `extensions by query, limit=${limit}`);
    }
    const named = await walk<Extension>(
      context,
      `/extensions?name=${prefix}-ext-b`,
      'extensions.list',
      20,
    );
    expectRecords(named, [extensionIds[1] as string], (e) => e.id, 'extensions by name');

    const pools: BrowserPool[] = [];
    for (const suffix of ['a', 'b']) {
      pools.push(await createPool(context, { name: `${prefix}-pool-${suffix}` }));
    }
    const poolIds = pools.map((pool) => pool.id);
    const walked = await walk<BrowserPool>(
      context,
      `/browser_pools?query=${prefix}-pool`,
      'browserPools.list',
      1,
    );
    expectRecords(walked, poolIds, (pool) => pool.id, 'pools by query, limit=1');
    const named2 = await walk<BrowserPool>(
      context,
      `/browser_pools?name=${prefix}-pool-a`,
      'browserPools.list',
      20,
    );
    expectRecords(named2, [poolIds[0] as string], (pool) => pool.id, 'pools by name');
  },
  'browsers are listed by page and by status: active, deleted, all': async (context) => {
    const kept = await createBrowser(context);
    const ended = await createBrowser(context);
    context.expectSuccess(
      await context.call('DELETE', `/browsers/${ended.session_id}`),
      'browsers.delete',
      204,
    );
    const ids = (sessions: BrowserSession[]) => sessions.map((session) => session.session_id);
    const active = ids(await walk<BrowserSession>(context, '/browsers', 'browsers.list', 1));
    const deleted = ids(
      await walk<BrowserSession>(context, '/browsers?status=deleted', 'browsers.list', 2),
    );
    const all = await walk<BrowserSession>(context, '/browsers?status=all', 'browsers.list', 3);
    expect(
      active.includes(kept.session_id) && !active.includes(ended.session_id),
      `status=active (the default) lists ${active.join(', ')}`,
    );
    expect(
      deleted.includes(ended.session_id) && !deleted.includes(kept.session_id),
      `status=deleted lists ${deleted.join(', ')}`,
    );
    const allIds = ids(all);
    expect(
      allIds.indexOf(kept.session_id) >= 0 &&
        allIds.indexOf(kept.session_id) < allIds.indexOf(ended.session_id) &&
        new Set(allIds).size === allIds.length,
      `status=all lists ${allIds.join(', ')}: both, oldest first, none twice`,
    );
    const endedRecord = all.find((session) => session.session_id === ended.session_id);
    expect(endedRecord?.deleted_at, 'the ended session in status=all has no deleted_at');
  },
  'a browser’s replays are listed by page': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const made: string[] = [];
    for (let index = 0; index < 3; index++) {
      const started = context.expectSuccess<Replay>(
        await context.call('POST', `/browsers/${id}/replays`, { json: { framerate: 5 } }),
        'browsers.replays.start',
        201,
      );
      context.expectSuccess(
        await context.call('POST', `/browsers/${id}/replays/${started.replay_id}/stop`),
        'browsers.replays.stop',
        200,
      );
      made.push(started.replay_id);
    }
    for (const limit of [1, 2, 3]) {
      const walked = await walk<Replay>(
        context,
        `/browsers/${id}/replays`,
        'browsers.replays.list',
        limit,
      );
      expectRecords(walked, made, (replay) => replay.replay_id, `replays, limit=${limit}`);
    }
    context.expectError(
      await context.call('GET', `/browsers/${id}/replays?limit=101`),
      400,
      'bad_request',
    );
  },
});
