import { eventStreamBody, type HandlerTable } from '@x/service-kernel';
import type { ServerRuntime } from '../runtime.js';

/** Every operation of the catalog, each on real Chromium, the sandbox, ffmpeg and the store. */
export const handlers: HandlerTable<ServerRuntime> = {
  'browsers.create': async ({ runtime, body, origin }) => {
    if (body.invocation_id) runtime.invocations.running(body.invocation_id);
    return { status: 201, json: await runtime.browsers.create(body, origin) };
  },
  'browsers.list': ({ runtime }) => ({ status: 200, json: runtime.browsers.list() }),
  'browsers.get': ({ runtime, params }) => ({
    status: 200,
    json: runtime.browsers.get(params.id as string),
  }),
  'browsers.delete': async ({ runtime, params }) => {
    await runtime.browsers.delete(params.id as string);
    return { status: 204 };
  },
  'browsers.computer.type': async ({ runtime, params, body, signal }) => {
    await runtime.browsers
      .live(params.id as string)
      .chromium.typeText(body.text, body.delay, signal);
    return { status: 204 };
  },
  'browsers.computer.screenshot': async ({ runtime, params, body }) => ({
    status: 200,
    bytes: await runtime.browsers.live(params.id as string).chromium.screenshot(body.region),
    contentType: 'image/png',
  }),
  'browsers.process.spawn': ({ runtime, params, body }) => {
    const instance = runtime.browsers.instance(params.id as string);
    return { status: 200, json: runtime.processes.spawn(params.id as string, instance, body) };
  },
  'browsers.process.exec': async ({ runtime, params, body, signal }) => {
    const instance = runtime.browsers.instance(params.id as string);
    return {
      status: 200,
      json: await runtime.processes.exec(params.id as string, instance, body, signal),
    };
  },
  'browsers.process.kill': ({ runtime, params, body }) => {
    runtime.browsers.live(params.id as string);
    runtime.processes.kill(params.id as string, params.process_id as string, body.signal);
    return { status: 200, json: { ok: true } };
  },
  'browsers.process.status': ({ runtime, params }) => {
    runtime.browsers.live(params.id as string);
    return {
      status: 200,
      json: runtime.processes.status(params.id as string, params.process_id as string),
    };
  },
  'browsers.process.output': ({ runtime, params }) => {
    const [id, processId] = [params.id as string, params.process_id as string];
    runtime.browsers.live(id);
    runtime.processes.assertExists(id, processId);
    return {
      status: 200,
      events: eventStreamBody((signal) => runtime.processes.output(id, processId, signal)),
    };
  },
  'browsers.fs.watch.start': ({ runtime, params, body }) => {
    const { home } = runtime.browsers.instance(params.id as string);
    return {
      status: 201,
      json: runtime.watches.start(params.id as string, home, body.path, body.recursive),
    };
  },
  'browsers.fs.watch.events': ({ runtime, params }) => {
    runtime.browsers.live(params.id as string);
    const events = runtime.watches.events(params.id as string, params.watch_id as string);
    return { status: 200, events: eventStreamBody((signal) => events.read(signal)) };
  },
  'browsers.fs.watch.stop': ({ runtime, params }) => {
    runtime.browsers.live(params.id as string);
    runtime.watches.stop(params.id as string, params.watch_id as string);
    return { status: 204 };
  },
  'browsers.replays.start': async ({ runtime, params, body }) => {
    const { chromium } = runtime.browsers.live(params.id as string);
    const replay = await runtime.replays.start(
      params.id as string,
      chromium,
      body.framerate,
      body.max_duration_in_seconds,
    );
    return { status: 201, json: replay };
  },
  'browsers.replays.list': ({ runtime, params }) => {
    runtime.browsers.get(params.id as string);
    return { status: 200, json: runtime.replays.list(params.id as string) };
  },
  'browsers.replays.download': async ({ runtime, params }) => {
    runtime.browsers.get(params.id as string);
    const outcome = await runtime.replays.download(params.id as string, params.replay_id as string);
    if ('recording' in outcome)
      return { status: 202, json: outcome.recording, headers: { 'retry-after': '1' } };
    return { status: 200, bytes: outcome.video, contentType: 'video/mp4' };
  },
  'browsers.replays.stop': async ({ runtime, params }) => {
    runtime.browsers.get(params.id as string);
    return {
      status: 200,
      json: await runtime.replays.stop(params.id as string, params.replay_id as string),
    };
  },
  'extensions.upload': async ({ runtime, body }) => ({
    status: 201,
    json: await runtime.extensions.upload(body.file, body.name),
  }),
  'extensions.list': ({ runtime }) => ({ status: 200, json: runtime.extensions.list() }),
  'extensions.download': async ({ runtime, params }) => ({
    status: 200,
    bytes: await runtime.extensions.download(params.id_or_name as string),
    contentType: 'application/zip',
  }),
  'extensions.delete': ({ runtime, params }) => {
    runtime.extensions.delete(params.id_or_name as string);
    return { status: 204 };
  },
  'browserPools.create': ({ runtime, body, origin }) => ({
    status: 201,
    json: runtime.pools.create(body, origin),
  }),
  'browserPools.list': ({ runtime }) => ({ status: 200, json: runtime.pools.list() }),
  'browserPools.get': ({ runtime, params }) => ({
    status: 200,
    json: runtime.pools.get(params.id_or_name as string),
  }),
  'browserPools.update': async ({ runtime, params, body, origin }) => ({
    status: 200,
    json: await runtime.pools.update(params.id_or_name as string, body, origin),
  }),
  'browserPools.delete': async ({ runtime, params, query }) => {
    await runtime.pools.delete(params.id_or_name as string, query.force === true);
    return { status: 204 };
  },
  'browserPools.acquire': async ({ runtime, params, body, signal }) => {
    const session = await runtime.pools.acquire(
      params.id_or_name as string,
      body.acquire_timeout_seconds,
      signal,
    );
    return session ? { status: 200, json: session } : { status: 204 };
  },
  'browserPools.release': async ({ runtime, params, body }) => {
    await runtime.pools.release(params.id_or_name as string, body.session_id, body.reuse);
    return { status: 204 };
  },
  'browserPools.flush': async ({ runtime, params }) => {
    await runtime.pools.flush(params.id_or_name as string);
    return { status: 204 };
  },
  'invocations.create': ({ runtime, body }) => ({
    status: 201,
    json: runtime.invocations.create(body),
  }),
  'invocations.get': ({ runtime, params }) => ({
    status: 200,
    json: runtime.invocations.get(params.id as string),
  }),
  'invocations.update': async ({ runtime, params, body }) => ({
    status: 200,
    json: await runtime.invocations.update(params.id as string, body),
  }),
  'invocations.listBrowsers': ({ runtime, params }) => {
    const invocation = runtime.invocations.get(params.id as string);
    return { status: 200, json: { browsers: runtime.browsers.list(invocation.id) } };
  },
};
