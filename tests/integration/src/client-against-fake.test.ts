import { ConflictError, createClient, NotFoundError } from '@x/client';
import { buildExtensionArchive, contractAppArchive, dropConnection, rateLimited } from '@x/testing';
import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';

/**
 * The client against the fake service of @x/testing over real HTTP on loopback: every area of
 * the API end to end, and the retry rules against injected faults.
 */
const fake = useFakeService({ listen: true });
const connect = () => createClient({ baseUrl: fake.url, token: fake.tokens.token });

describe('the client against the fake service', () => {
  it('acts in the project it is given, which no other project sees into', async () => {
    const admin = connect();
    await admin.projects.create({ name: 'team-a' });
    const teamA = createClient({ baseUrl: fake.url, token: fake.tokens.token, project: 'team-a' });
    const browser = await teamA.browsers.create({});
    expect((await teamA.browsers.list()).items.map((each) => each.session_id)).toContain(
      browser.session_id,
    );
    await expect(admin.browsers.get({ id: browser.session_id })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const key = await admin.apiKeys.create({ name: 'team a', project_id: 'team-a' });
    const byKey = createClient({ baseUrl: fake.url, token: key.key });
    expect((await byKey.browsers.get({ id: browser.session_id })).session_id).toBe(
      browser.session_id,
    );
    await teamA.browsers.delete({ id: browser.session_id });
  });

  it('drives browsers, typing, screenshots and replays', async () => {
    const client = connect();
    const browser = await client.browsers.create({ viewport: { width: 800, height: 600 } });
    await client.browsers.computer.type({ id: browser.session_id, text: 'héllo 世界 👋\n' });
    expect(fake.typedText(browser.session_id)).toBe('héllo 世界 👋\n');
    const png = await (
      await client.browsers.computer.screenshot({ id: browser.session_id })
    ).bytes();
    expect([...png.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);

    const replay = await client.browsers.replays.start({ id: browser.session_id });
    const pending = await client.browsers.replays.download({
      id: browser.session_id,
      replay_id: replay.replay_id,
    });
    expect(pending.status).toBe(202);
    const stopped = await client.browsers.replays.stop({
      id: browser.session_id,
      replay_id: replay.replay_id,
    });
    expect(stopped.finished_at).toBeDefined();
    const video = await client.browsers.replays.download({
      id: browser.session_id,
      replay_id: replay.replay_id,
    });
    expect(video.status).toBe(200);
    if (video.status === 200)
      expect(new TextDecoder().decode((await video.value.bytes()).subarray(4, 8))).toBe('ftyp');

    expect((await client.browsers.list()).items.map((session) => session.session_id)).toEqual([
      browser.session_id,
    ]);
    await client.browsers.delete({ id: browser.session_id });
    expect((await client.browsers.get({ id: browser.session_id })).deleted_at).toBeDefined();
  });

  it('drives processes and watches, with their event streams', async () => {
    const client = connect();
    const { session_id: id } = await client.browsers.create();
    const exec = await client.browsers.process.exec({ id, command: 'echo', args: ['hi'] });
    expect(Buffer.from(exec.stdout_b64, 'base64').toString()).toBe('hi\n');

    fake.scriptProcess('worker', {
      runForMs: Number.POSITIVE_INFINITY,
      cpuPct: 30,
      memBytes: 2048,
    });
    const spawned = await client.browsers.process.spawn({ id, command: 'worker' });
    expect(await client.browsers.process.status({ id, process_id: spawned.process_id })).toEqual({
      state: 'running',
      exit_code: null,
      cpu_pct: 30,
      mem_bytes: 2048,
    });
    const output = await client.browsers.process.output({ id, process_id: spawned.process_id });
    fake.writeProcessOutput(spawned.process_id, 'stdout', 'working\n');
    await client.browsers.process.kill({ id, process_id: spawned.process_id, signal: 'KILL' });
    const events = [];
    for await (const event of output) events.push(event.type);
    expect(events).toEqual(['stdout', 'exit']);
    expect(
      (await client.browsers.process.status({ id, process_id: spawned.process_id })).exit_code,
    ).toBe(137);

    const watch = await client.browsers.fs.watch.start({ id, path: '/home/browser/Downloads' });
    const stream = await client.browsers.fs.watch.events({ id, watch_id: watch.watch_id });
    fake.emitFsEvent(id, { type: 'CREATE', path: '/home/browser/Downloads/report.pdf' });
    for await (const event of stream) {
      expect(event).toEqual({
        type: 'CREATE',
        path: '/home/browser/Downloads/report.pdf',
        name: 'report.pdf',
      });
      break;
    }
    await client.browsers.fs.watch.stop({ id, watch_id: watch.watch_id });
    await expect(client.browsers.fs.watch.stop({ id, watch_id: watch.watch_id })).rejects.toThrow(
      NotFoundError,
    );
  });

  it('drives profiles and proxies', async () => {
    const client = connect();
    const profile = await client.profiles.create({ name: 'shop' });
    const session = await client.browsers.create({
      profile: { name: 'shop', save_changes: true },
    });
    expect(session.profile).toMatchObject({ id: profile.id, save_changes: true });
    fake.file(session.session_id, '/home/browser/.config/chromium/Default/Cookies', 'sid=7');
    await client.browsers.delete({ id: session.session_id });
    expect((await client.profiles.get({ id_or_name: 'shop' })).updated_at).toBeDefined();
    const tar = await (await client.profiles.download({ id_or_name: 'shop' })).bytes();
    expect(new TextDecoder().decode(tar)).toContain('sid=7');
    const zst = await (
      await client.profiles.download({ id_or_name: 'shop', format: 'tar.zst' })
    ).bytes();
    expect([...zst.subarray(0, 4)]).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
    expect((await client.profiles.list({ query: 'sho' })).items).toHaveLength(1);

    const proxy = await client.proxies.create({
      type: 'custom',
      config: { host: 'proxy.test', port: 8080, username: 'agent', password: 'pw' },
    });
    expect(proxy.config.has_password).toBe(true);
    expect((await client.proxies.check({ id: proxy.id })).status).toBe('available');
    const routed = await client.browsers.create({ proxy_id: proxy.id });
    await expect(client.proxies.delete({ id: proxy.id })).rejects.toThrow(ConflictError);
    await client.browsers.delete({ id: routed.session_id });
    await client.proxies.delete({ id: proxy.id });
  });

  it('drives pools, extensions and invocations', async () => {
    const client = connect();
    const archive = buildExtensionArchive();
    const progress: number[] = [];
    const extension = await client.extensions.upload(
      { file: new Blob([archive as Uint8Array<ArrayBuffer>]), name: 'adblock' },
      { onUploadProgress: (event) => progress.push(event.transferredBytes) },
    );
    expect(extension.size_bytes).toBe(archive.byteLength);
    expect(progress.length).toBeGreaterThan(0);
    expect(await (await client.extensions.download({ id_or_name: 'adblock' })).bytes()).toEqual(
      archive,
    );

    const pool = await client.browserPools.create({
      name: 'checkout',
      size: 1,
      extensions: [{ name: 'adblock' }],
    });
    expect((await client.browserPools.get({ id_or_name: 'checkout' })).id).toBe(pool.id);
    const acquired = await client.browserPools.acquire({ id_or_name: 'checkout' });
    expect(acquired.status).toBe(200);
    const none = await client.browserPools.acquire({
      id_or_name: 'checkout',
      acquire_timeout_seconds: 0,
    });
    expect(none.status).toBe(204);
    if (acquired.status === 200) {
      await client.browserPools.release({
        id_or_name: 'checkout',
        session_id: acquired.value.session_id,
      });
    }
    await client.browserPools.flush({ id_or_name: 'checkout' });
    expect(
      (await client.browserPools.update({ id_or_name: 'checkout', size: 2 })).available_count,
    ).toBe(2);
    await client.browserPools.delete({ id_or_name: 'checkout' });
    await client.extensions.delete({ id_or_name: 'adblock' });
    expect((await client.extensions.list()).items).toEqual([]);

    // An app deployed to the fake (its code runs in this process), invoked async: it waits.
    const deployed = await client.deployments.create({
      file: contractAppArchive(),
      entrypoint_rel_path: 'app.js',
      version: 'v1',
      env_vars: { CONTRACT_APP_NAME: 'shop' },
    });
    for await (const event of await client.deployments.events({ id: deployed.id })) {
      if (event.event === 'deployment_state') expect(event.deployment.status).not.toBe('failed');
    }
    expect((await client.apps.list({ app_name: 'shop' })).items[0]?.version).toBe('v1');
    const echoed = await client.invocations.create({
      app_name: 'shop',
      action_name: 'echo',
      version: 'v1',
      payload: '{"cart":42}',
    });
    expect(echoed).toMatchObject({
      status: 200,
      value: { status: 'succeeded', output: '{"cart":42}' },
    });
    const queued = await client.invocations.create({
      action_name: 'contract',
      app_name: 'shop',
      version: 'v1',
      async: true,
    });
    expect(queued.status).toBe(202);
    const invocation = queued.value;
    const browser = await client.browsers.create({ invocation_id: invocation.id });
    expect(
      (await client.invocations.listBrowsers({ id: invocation.id })).browsers.map(
        (entry) => entry.session_id,
      ),
    ).toEqual([browser.session_id]);
    expect(
      (await client.invocations.update({ id: invocation.id, status: 'succeeded' })).finished_at,
    ).toBeDefined();
    expect((await client.invocations.get({ id: invocation.id })).status).toBe('succeeded');
    await client.deployments.delete({ id: deployed.id });
  });

  it('retries a 429 after its Retry-After and reports the request id of a 404', async () => {
    const client = connect();
    fake.inject(rateLimited(1), { operation: 'browsers.list', times: 1 });
    const started = performance.now();
    expect((await client.browsers.list()).items).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.journal.count('browsers.list')).toBe(2);

    const error = await client.browsers
      .get({ id: 'br_missing' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).requestId).toBe(fake.journal.last('browsers.get')?.requestId);
  });

  it('types once when the answer is lost and the call is retried with its idempotency key', async () => {
    const client = connect();
    const { session_id: id } = await client.browsers.create();
    fake.inject(dropConnection({ afterHandling: true }), {
      operation: 'browsers.computer.type',
      times: 1,
    });
    await client.browsers.computer.type({ id, text: 'pay 10 €' });
    expect(fake.typedText(id)).toBe('pay 10 €');
    const calls = fake.journal.calls('browsers.computer.type');
    expect(calls).toHaveLength(2);
    expect(calls[0]?.headers['idempotency-key']).toBeDefined();
    expect(calls[1]?.headers['idempotency-key']).toBe(calls[0]?.headers['idempotency-key']);
  });
});
