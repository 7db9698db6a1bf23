import { describe, expect, it } from 'vitest';
import { apiOf } from '../test-support/api.js';
import { fakeService, newBrowser } from '../test-support/fakes.js';

async function startWatch(
  fake: ReturnType<typeof fakeService>,
  id: string,
  body: Record<string, unknown>,
) {
  const answer = await apiOf(fake).call('POST', `/browsers/${id}/fs/watch`, { json: body });
  expect(answer.status).toBe(201);
  return (answer.json as { watch_id: string }).watch_id;
}

describe('watches', () => {
  it('deliver events a test emits, in order', async () => {
    const fake = fakeService();
    const { session_id: id } = await newBrowser(fake);
    const watchId = await startWatch(fake, id, { path: '/home/browser/Downloads' });
    const stream = await apiOf(fake).stream(`/browsers/${id}/fs/watch/${watchId}/events`);
    fake.emitFsEvent(id, { type: 'CREATE', path: '/home/browser/Downloads/a.pdf' });
    fake.emitFsEvent(id, { type: 'WRITE', path: '/home/browser/Downloads/a.pdf' });
    fake.emitFsEvent(id, { type: 'CREATE', path: '/home/browser/elsewhere.txt' });
    fake.emitFsEvent(id, { type: 'DELETE', path: '/home/browser/Downloads/a.pdf' });
    expect([await stream.next(), await stream.next(), await stream.next()]).toEqual([
      { type: 'CREATE', path: '/home/browser/Downloads/a.pdf', name: 'a.pdf' },
      { type: 'WRITE', path: '/home/browser/Downloads/a.pdf', name: 'a.pdf' },
      { type: 'DELETE', path: '/home/browser/Downloads/a.pdf', name: 'a.pdf' },
    ]);
    stream.close();
  });

  it('recursive watches include directories created later; plain ones only direct children', async () => {
    const fake = fakeService();
    const { session_id: id } = await newBrowser(fake);
    const deep = await startWatch(fake, id, { path: '/home/browser', recursive: true });
    const flat = await startWatch(fake, id, { path: '/home/browser' });
    fake.emitFsEvent(id, { type: 'CREATE', path: '/home/browser/new', is_dir: true });
    fake.emitFsEvent(id, { type: 'CREATE', path: '/home/browser/new/inner.txt', is_dir: false });
    const watches = fake.state.browsers.get(id)?.watches;
    expect(
      watches
        ?.get(deep)
        ?.events.pending.map((event) => ('path' in event ? event.path : event.type)),
    ).toEqual(['/home/browser/new', '/home/browser/new/inner.txt']);
    expect(
      watches
        ?.get(flat)
        ?.events.pending.map((event) => ('path' in event ? event.path : event.type)),
    ).toEqual(['/home/browser/new']);
  });

  it('tell a slow reader how many events it lost with OVERFLOW, never dropping silently', async () => {
    const fake = fakeService({ watchBufferSize: 4 });
    const { session_id: id } = await newBrowser(fake);
    const watchId = await startWatch(fake, id, { path: '/home/browser/Downloads' });
    for (let index = 0; index < 10; index++)
      fake.emitFsEvent(id, { type: 'CREATE', path: `/home/browser/Downloads/${index}` });
    const stream = await apiOf(fake).stream(`/browsers/${id}/fs/watch/${watchId}/events`);
    const read = [
      await stream.next(),
      await stream.next(),
      await stream.next(),
      await stream.next(),
      await stream.next(),
    ];
    expect(read).toEqual([
      expect.objectContaining({ path: '/home/browser/Downloads/0' }),
      expect.objectContaining({ path: '/home/browser/Downloads/1' }),
      expect.objectContaining({ path: '/home/browser/Downloads/2' }),
      expect.objectContaining({ path: '/home/browser/Downloads/3' }),
      { type: 'OVERFLOW', lost: 6 },
    ]);
    fake.emitFsEvent(id, { type: 'CREATE', path: '/home/browser/Downloads/after' });
    expect(await stream.next()).toMatchObject({ path: '/home/browser/Downloads/after' });
    stream.close();
  });

  it('end with their browser, closing the stream', async () => {
    const fake = fakeService();
    await fake.listen();
    const { session_id: id } = await newBrowser(fake);
    const watchId = await startWatch(fake, id, { path: '/home/browser' });
    const stream = await apiOf(fake, { overHttp: true }).stream(
      `/browsers/${id}/fs/watch/${watchId}/events`,
    );
    await apiOf(fake).call('DELETE', `/browsers/${id}`);
    expect(await stream.next()).toBeUndefined();
  });

  it('refuse a file, and resolve relative paths from /home/browser', async () => {
    const fake = fakeService();
    const { session_id: id } = await newBrowser(fake);
    fake.emitFsEvent(id, { type: 'CREATE', path: '/home/browser/file.txt' });
    const api = apiOf(fake);
    expect(
      (await api.call('POST', `/browsers/${id}/fs/watch`, { json: { path: 'file.txt' } })).status,
    ).toBe(400);
    expect(
      (await api.call('POST', `/browsers/${id}/fs/watch`, { json: { path: 'Downloads' } })).status,
    ).toBe(201);
  });
});

describe('an event stream read in-process', () => {
  it('ends when the reader cancels it while it waits for an event', async () => {
    const fake = fakeService();
    const { session_id: id } = await newBrowser(fake);
    const watchId = await startWatch(fake, id, { path: '/home/browser' });
    const response = await fake.fetch(`${fake.url}/browsers/${id}/fs/watch/${watchId}/events`, {
      headers: { authorization: `Bearer ${fake.tokens.token}` },
    });
    const reader = response.body?.getReader();
    const pending = reader?.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await reader?.cancel();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(fake.state.browsers.get(id)?.watches.get(watchId)?.events.isClosed).toBe(false);
  });
});
