import { once } from 'node:events';
import { readFrameMessage } from '@x/service-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createFakeService, type FakeService } from './fake-service.js';

let fake: FakeService;
let base = '';
const auth = () => ({
  authorization: `Bearer ${fake.tokens.token}`,
  'content-type': 'application/json',
});

async function newSession(): Promise<{ session_id: string; browser_live_view_url: string }> {
  const response = await fetch(`${base}/browsers`, { method: 'POST', headers: auth(), body: '{}' });
  return (await response.json()) as { session_id: string; browser_live_view_url: string };
}

/** A live view socket as the page opens it, with what it received. */
async function openViewer(pageUrl: string) {
  const page = new URL(pageUrl);
  const socket = new WebSocket(`ws://${page.host}${page.pathname}/ws${page.search}`);
  const texts: { type: string; mode?: string }[] = [];
  const frames: { seq: number; mime: string }[] = [];
  let closed: { code: number; reason: string } | undefined;
  socket.on('message', (data, isBinary) => {
    const bytes = data as Buffer;
    if (!isBinary) {
      texts.push(JSON.parse(bytes.toString()));
      return;
    }
    frames.push(readFrameMessage(bytes).header);
  });
  socket.on('close', (code, reason) => {
    closed = { code, reason: reason.toString() };
  });
  await Promise.race([once(socket, 'open'), once(socket, 'close')]);
  return {
    socket,
    texts,
    frames,
    closed: () => closed,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
  };
}

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 3000;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
};

beforeAll(async () => {
  fake = createFakeService();
  base = await fake.listen();
});
afterAll(() => fake.close());

describe('the fake live view', () => {
  it('serves the page, its script, and a page saying why a bad link does not open', async () => {
    const { session_id: id, browser_live_view_url: url } = await newSession();
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain('<canvas id="screen">');
    const script = await fetch(`${base}/assets/live-view.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(await script.text()).toContain('createImageBitmap');
    const forged = await fetch(`${base}/browsers/${id}/live?jwt=a.b.c`);
    expect(forged.status).toBe(401);
    expect(await forged.text()).toContain('Link not valid');
  });

  it('streams a synthetic screen that changes with input, and takes control input', async () => {
    const { session_id: id, browser_live_view_url: url } = await newSession();
    const viewer = await openViewer(url);
    expect(await until(() => viewer.frames.length === 1)).toBe(true);
    expect(viewer.texts[0]).toMatchObject({ type: 'hello', mode: 'control' });
    expect(viewer.frames[0]?.mime).toBe('image/png');
    viewer.send({ type: 'ack', seq: 1 });
    viewer.send({ type: 'text', text: 'hi' });
    expect(await until(() => viewer.frames.length === 2)).toBe(true);
    expect(fake.typedText(id)).toBe('hi');
    const record = await fetch(`${base}/browsers/${id}`, { headers: auth() }).then((r) => r.json());
    expect(record.viewers).toBe(1);
    viewer.socket.close();
  });

  it('makes read links that never send input, and closes viewers when the session ends', async () => {
    const { session_id: id } = await newSession();
    const created = await fetch(`${base}/browsers/${id}/live_view`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ mode: 'read', ttl_seconds: 600 }),
    });
    expect(created.status).toBe(201);
    const link = (await created.json()) as { url: string; mode: string };
    expect(link.mode).toBe('read');
    const viewer = await openViewer(link.url);
    expect(await until(() => viewer.frames.length === 1)).toBe(true);
    viewer.send({ type: 'text', text: 'nope' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.typedText(id)).toBe('');
    await fetch(`${base}/browsers/${id}`, { method: 'DELETE', headers: auth() });
    expect(await until(() => viewer.closed() !== undefined)).toBe(true);
    expect(viewer.closed()?.code).toBe(4404);
    // A later visit hears the session ended, on the socket and on the page.
    const late = await openViewer(link.url);
    expect(await until(() => late.closed() !== undefined)).toBe(true);
    expect(late.closed()?.code).toBe(4404);
    expect((await fetch(link.url)).status).toBe(404);
  });
});

describe('the fake replay page', () => {
  it("plays a finished replay on its replay_view_url, with ranges; another replay's key opens nothing", async () => {
    const { session_id: id } = await newSession();
    const started = await fetch(`${base}/browsers/${id}/replays`, {
      method: 'POST',
      headers: auth(),
      body: '{}',
    });
    const { replay_id } = (await started.json()) as { replay_id: string };
    const stopped = await fetch(`${base}/browsers/${id}/replays/${replay_id}/stop`, {
      method: 'POST',
      headers: auth(),
    });
    const { replay_view_url: url } = (await stopped.json()) as { replay_view_url: string };
    expect(url).toMatch(new RegExp(`^${base}/browsers/${id}/replays/${replay_id}/view\\?jwt=`));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<video id="video"');
    const videoUrl = url.replace('/view?', '/view/video?');
    const whole = await fetch(videoUrl);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    const size = (await whole.arrayBuffer()).byteLength;
    const part = await fetch(videoUrl, { headers: { range: 'bytes=1-2' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1-2/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(2);
    expect((await fetch(videoUrl, { headers: { range: `bytes=${size + 5}-` } })).status).toBe(416);
    const elsewhere = await fetch(url.replace(replay_id, 'rp_other'));
    expect(elsewhere.status).toBe(401);
    // A read-only token's list names the page without its key.
    const listed = await fetch(`${base}/browsers/${id}/replays`, {
      headers: { authorization: `Bearer ${fake.tokens.readOnlyToken}` },
    });
    const [replay] = (await listed.json()) as { replay_view_url: string }[];
    expect(replay?.replay_view_url).not.toContain('jwt=');
  });
});
