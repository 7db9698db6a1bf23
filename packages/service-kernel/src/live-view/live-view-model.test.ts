import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSessionJwt, verifySessionJwt } from '../session-jwt.js';
import { newTestBrowser } from '../test-support/memory-engines.js';
import { readFrameMessage } from './frame-message.js';
import {
  CONTROL_IDLE_MS,
  LIVE_CLOSE,
  type LiveViewGrant,
  MAX_VIEWERS_PER_SESSION,
} from './live-view-model.js';

/** A viewer's socket that keeps what it was sent. */
function fakeSocket() {
  const socket = {
    texts: [] as {
      type: string;
      mode?: string;
      code?: number;
      state?: string;
      count?: number;
      id?: number;
      message?: string;
      tabs?: { id: string; url: string; title: string; active: boolean }[];
    }[],
    frames: [] as { seq: number; colour: number }[],
    closedWith: undefined as number | undefined,
    sendText: (text: string) => void socket.texts.push(JSON.parse(text)),
    sendBinary: (bytes: Uint8Array) => {
      const { header, picture } = readFrameMessage(bytes);
      socket.frames.push({ seq: header.seq, colour: picture[0] as number });
    },
    close: (code: number) => {
      socket.closedWith = code;
    },
  };
  return socket;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 40));
const jwtOf = (url: string) => new URL(url).searchParams.get('jwt') ?? '';

/** The last message of `type` a socket was sent. */
const last = (socket: ReturnType<typeof fakeSocket>, type: string) =>
  socket.texts.filter((text) => text.type === type).at(-1);

async function watched(mode: 'control' | 'read' = 'control') {
  const test = await newTestBrowser();
  const link = test.model.liveViews.create(test.id, { mode }, 'http://localhost');
  const grant = test.model.liveViews.grant(test.id, jwtOf(link.url)) as LiveViewGrant;
  const socket = fakeSocket();
  const connection = test.model.liveViews.connect(test.id, grant, socket);
  if (!connection) throw new Error('refused');
  await tick();
  return { ...test, link, grant, socket, connection };
}

describe('live view links', () => {
  it('are scoped to one session and a mode, and never open DevTools', async () => {
    const { model, id, link } = await watched('read');
    expect(link.url).toMatch(new RegExp(`^http://localhost/browsers/${id}/live\\?jwt=`));
    expect(link.mode).toBe('read');
    expect(model.liveViews.grant(id, jwtOf(link.url))).toMatchObject({ mode: 'read' });
    // Not for another session, and not a key to the browser's DevTools.
    expect(model.liveViews.grant('br_other', jwtOf(link.url))).toMatchObject({ status: 401 });
    expect(verifySessionJwt('secret', jwtOf(link.url), id, Date.now() / 1000)).toBe(false);
    // The DevTools key is not a live view link either.
    const record = await model.browsers.get(id);
    expect(model.liveViews.grant(id, jwtOf(record.cdp_ws_url))).toMatchObject({ status: 401 });
    expect(record.browser_live_view_url).toMatch(/\/live\?jwt=/);
    expect(model.liveViews.grant(id, jwtOf(record.browser_live_view_url ?? ''))).toMatchObject({
      mode: 'control',
    });
  });

  it('expire after ttl_seconds, and say so once the session ended', async () => {
    const { model, id, advance } = await newTestBrowser();
    const link = model.liveViews.create(id, { ttl_seconds: 60 }, 'http://localhost');
    const claims = readSessionJwt('secret', jwtOf(link.url), id, 0);
    expect(Date.parse(link.expires_at) / 1000).toBe(claims?.expiresAt);
    advance(61_000);
    expect(model.liveViews.grant(id, jwtOf(link.url))).toMatchObject({ status: 401 });
    const fresh = model.liveViews.create(id, {}, 'http://localhost');
    await model.browsers.delete(id);
    expect(model.liveViews.grant(id, jwtOf(fresh.url))).toMatchObject({ status: 404 });
  });
});

describe('a live viewer', () => {
  it('gets hello and the screen, then one frame per ack: a slow viewer skips, never queues', async () => {
    const { socket, connection, instance } = await watched();
    expect(socket.texts[0]).toMatchObject({ type: 'hello', mode: 'control' });
    expect(socket.frames).toEqual([{ seq: 1, colour: 0 }]);
    // Not acknowledged yet: the screen changes three times, nothing more is sent.
    for (const colour of [1, 2, 3]) instance.repaint(colour);
    await tick();
    expect(socket.frames).toHaveLength(1);
    connection.receive(JSON.stringify({ type: 'ack', seq: 1 }));
    await tick();
    // The newest picture, not the ones in between.
    expect(socket.frames.at(-1)).toEqual({ seq: 2, colour: 3 });
    connection.receive(JSON.stringify({ type: 'ack', seq: 2 }));
    instance.repaint(4);
    await tick();
    expect(socket.frames.at(-1)).toMatchObject({ colour: 4 });
  });

  it('shares one stream among viewers, stopped with the last; the record counts them', async () => {
    const { model, id, grant, connection, instance } = await watched();
    const second = fakeSocket();
    const other = model.liveViews.connect(id, grant, second);
    await tick();
    expect(instance.screen.streamCount).toBe(1);
    expect(second.frames).toHaveLength(1);
    expect((await model.browsers.get(id)).viewers).toBe(2);
    connection.closed();
    other?.closed();
    expect(instance.screen.streamCount).toBe(0);
    expect((await model.browsers.get(id)).viewers).toBe(0);
    const drawn = instance.screen.framesDrawn;
    instance.repaint(9);
    await tick();
    expect(instance.screen.framesDrawn).toBe(drawn);
  });

  it('sends control input as input events, and nothing from a read link', async () => {
    const control = await watched('control');
    control.connection.receive(
      JSON.stringify({
        type: 'mouse',
        event: 'down',
        x: 5000,
        y: 20,
        button: 'left',
        clickCount: 2,
        modifiers: 2,
      }),
    );
    control.connection.receive(JSON.stringify({ type: 'text', text: 'héllo 世界' }));
    control.connection.receive(
      JSON.stringify({ type: 'key', event: 'down', key: 'Enter', modifiers: 0 }),
    );
    await tick();
    // Held inside the viewport (1920 wide), the button held on the pointer.
    expect(control.instance.inputs[0]).toMatchObject({
      kind: 'mouse',
      type: 'down',
      x: 1919,
      y: 20,
      clickCount: 2,
      buttons: 1,
      modifiers: 2,
    });
    expect(control.instance.typed.map((typed) => typed.text)).toEqual(['héllo 世界']);
    expect(control.instance.inputs[1]).toMatchObject({ kind: 'key', type: 'down', key: 'Enter' });

    const read = await watched('read');
    read.connection.receive(JSON.stringify({ type: 'text', text: 'nope' }));
    read.connection.receive(
      JSON.stringify({
        type: 'mouse',
        event: 'down',
        x: 1,
        y: 1,
        button: 'left',
        clickCount: 1,
        modifiers: 0,
      }),
    );
    await tick();
    expect(read.instance.typed).toEqual([]);
    expect(read.instance.inputs).toEqual([]);
    expect(read.socket.closedWith).toBeUndefined();
  });

  it('is cut off for what the page never sends: garbage, a huge text, a flood of input', async () => {
    for (const message of [
      'not json',
      '{"type":"eval"}',
      JSON.stringify({ type: 'text', text: 'x'.repeat(5000) }),
    ]) {
      const { socket, connection } = await watched();
      connection.receive(message);
      expect(socket.closedWith).toBe(LIVE_CLOSE.protocol);
    }
    const { socket, connection, instance } = await watched();
    let blocked: () => void = () => undefined;
    instance.type = () =>
      new Promise<void>((resolve) => {
        blocked = resolve;
      });
    for (let index = 0; index < 300; index++)
      connection.receive(JSON.stringify({ type: 'text', text: 'a' }));
    expect(socket.closedWith).toBe(LIVE_CLOSE.protocol);
    blocked();
  });

  it('changes the picture size at most once a quarter second, however often a page asks', async () => {
    const { connection, instance } = await watched();
    for (let index = 0; index < 200; index++)
      connection.receive(
        JSON.stringify({ type: 'size', width: 400 + (index % 2) * 400, height: 300 }),
      );
    await vi.waitFor(() => expect(instance.screen.resizes).toBe(1), { timeout: 10_000 });
    // However long after: the 200 asks made one change.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(instance.screen.resizes).toBe(1);
  });

  it('keeps a watched session alive, and is told when the session ends', async () => {
    const { model, id, socket, advance } = await watched();
    advance(10 * 60 * 1000);
    model.sweep();
    expect(model.browsers.peek(id)).toBeDefined();
    await model.browsers.delete(id);
    expect(socket.closedWith).toBe(LIVE_CLOSE.ended);
  });

  it(`refuses a viewer past ${MAX_VIEWERS_PER_SESSION} on one session`, async () => {
    const { model, id, grant } = await watched();
    for (let index = 1; index < MAX_VIEWERS_PER_SESSION; index++)
      model.liveViews.connect(id, grant, fakeSocket());
    const late = fakeSocket();
    expect(model.liveViews.connect(id, grant, late)).toBeUndefined();
    expect(late.closedWith).toBe(LIVE_CLOSE.tooMany);
  });
});

describe('control taken in the live view', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const take = (connection: { receive(text: string): void }) =>
    connection.receive(JSON.stringify({ type: 'control', action: 'take' }));
  const release = (connection: { receive(text: string): void }) =>
    connection.receive(JSON.stringify({ type: 'control', action: 'release' }));
  const text = (connection: { receive(text: string): void }, typed: string) =>
    connection.receive(JSON.stringify({ type: 'text', text: typed }));

  it("holds the agent's input while a person has it, and lets it go on after, in order", async () => {
    const { model, id, socket, connection, instance } = await watched();
    expect(last(socket, 'control')).toMatchObject({ state: 'agent' });
    take(connection);
    expect(last(socket, 'control')).toMatchObject({ state: 'you' });
    expect(instance.isClientInputHeld).toBe(true);
    const signal = new AbortController().signal;
    const first = model.computer.type(id, 'agent one ', 0, signal);
    const second = model.computer.click(
      id,
      { x: 1, y: 1, button: 'left', click_type: 'click', num_clicks: 1, hold_keys: [] },
      signal,
    );
    await tick();
    expect(instance.typed).toEqual([]);
    expect(instance.inputs).toEqual([]);
    text(connection, 'person ');
    await tick();
    expect(instance.typed.map((typed) => typed.text)).toEqual(['person ']);
    release(connection);
    await Promise.all([first, second]);
    expect(instance.typed.map((typed) => typed.text)).toEqual(['person ', 'agent one ']);
    expect(instance.inputs.map((input) => input.kind)).toContain('mouse');
    expect(instance.isClientInputHeld).toBe(false);
    expect(last(socket, 'control')).toMatchObject({ state: 'agent' });
  });

  it('lets one person hold it: the others wait, read links cannot take it', async () => {
    const { model, id, grant, socket, connection, instance } = await watched();
    const otherSocket = fakeSocket();
    const other = model.liveViews.connect(id, grant, otherSocket);
    if (!other) throw new Error('refused');
    take(connection);
    expect(last(otherSocket, 'control')).toMatchObject({ state: 'other' });
    text(other, 'not mine');
    take(other);
    await tick();
    expect(instance.typed).toEqual([]);
    expect(last(socket, 'control')).toMatchObject({ state: 'you' });
    const readLink = model.liveViews.create(id, { mode: 'read' }, 'http://localhost');
    const readSocket = fakeSocket();
    const reader = model.liveViews.connect(
      id,
      model.liveViews.grant(id, jwtOf(readLink.url)) as LiveViewGrant,
      readSocket,
    );
    release(reader as never);
    take(reader as never);
    expect(last(socket, 'control')).toMatchObject({ state: 'you' });
    // Given back, the other person may take it.
    release(connection);
    take(other);
    expect(last(otherSocket, 'control')).toMatchObject({ state: 'you' });
    expect(last(socket, 'control')).toMatchObject({ state: 'other' });
  });

  it('goes back to the agent when its holder leaves, or sends nothing for 5 minutes', async () => {
    const { model, id, connection, instance } = await watched();
    take(connection);
    const waiting = model.computer.type(id, 'after', 0, new AbortController().signal);
    connection.closed();
    await waiting;
    expect(instance.typed.map((typed) => typed.text)).toEqual(['after']);
    expect(instance.isClientInputHeld).toBe(false);

    vi.useFakeTimers({ toFake: ['setInterval', 'Date'] });
    const idle = await watched();
    take(idle.connection);
    const held = idle.model.computer.type(idle.id, 'later', 0, new AbortController().signal);
    vi.advanceTimersByTime(CONTROL_IDLE_MS - 60_000);
    await tick();
    expect(idle.instance.typed).toEqual([]);
    vi.advanceTimersByTime(90_000);
    await held;
    expect(idle.instance.typed.map((typed) => typed.text)).toEqual(['later']);
    expect(last(idle.socket, 'control')).toMatchObject({ state: 'agent' });
  });

  it('sends nothing of an agent call whose caller went away while it waited', async () => {
    const { model, id, connection, instance } = await watched();
    take(connection);
    const caller = new AbortController();
    const waiting = model.computer.type(id, 'gone', 0, caller.signal);
    caller.abort();
    await waiting;
    release(connection);
    await model.computer.type(id, 'next', 0, new AbortController().signal);
    expect(instance.typed.map((typed) => typed.text)).toEqual(['next']);
  });

  it('ends with the session: what waited is let go', async () => {
    const { model, id, connection } = await watched();
    take(connection);
    const waiting = model.computer.type(id, 'x', 0, new AbortController().signal);
    await model.browsers.delete(id);
    await expect(waiting).resolves.toBeUndefined();
  });
});

describe('the live view bar', () => {
  it('shows the tabs and sends them where a control link asks; a bad address is told', async () => {
    const { socket, connection, instance } = await watched();
    expect(last(socket, 'tabs')?.tabs).toEqual([
      expect.objectContaining({ url: 'about:blank', active: true }),
    ]);
    connection.receive(JSON.stringify({ type: 'navigate', url: 'example.com/a' }));
    await vi.waitFor(
      () => expect(last(socket, 'tabs')?.tabs?.[0]).toMatchObject({ url: 'https://example.com/a' }),
      { timeout: 10_000 },
    );
    connection.receive(JSON.stringify({ type: 'navigate', url: 'javascript:alert(1)' }));
    connection.receive(JSON.stringify({ type: 'navigate', url: 'chrome://settings' }));
    await tick();
    expect(last(socket, 'notice')?.message).toMatch(/Only http and https/);
    connection.receive(JSON.stringify({ type: 'tab', action: 'open', url: 'https://b.test/' }));
    await vi.waitFor(
      () =>
        expect((last(socket, 'tabs')?.tabs ?? []).map((tab) => [tab.url, tab.active])).toEqual([
          ['https://example.com/a', false],
          ['https://b.test/', true],
        ]),
      { timeout: 10_000 },
    );
    const tabs = last(socket, 'tabs')?.tabs ?? [];
    connection.receive(JSON.stringify({ type: 'tab', action: 'close', id: tabs[0]?.id }));
    await tick();
    expect(last(socket, 'notice')?.message).toMatch(/first tab stays/);
    connection.receive(JSON.stringify({ type: 'tab', action: 'activate', id: tabs[0]?.id }));
    connection.receive(JSON.stringify({ type: 'navigate', action: 'back' }));
    await vi.waitFor(
      () =>
        expect(instance.tabs().map((tab) => [tab.url, tab.isActive])).toEqual([
          ['about:blank', true],
          ['https://b.test/', false],
        ]),
      { timeout: 10_000 },
    );
  });

  it('sends nothing from a read link, and nothing while another person holds control', async () => {
    const read = await watched('read');
    read.connection.receive(JSON.stringify({ type: 'navigate', url: 'https://x.test/' }));
    await tick();
    expect(read.instance.tabs()[0]?.url).toBe('about:blank');
    const { model, id, grant, connection, instance } = await watched();
    const other = model.liveViews.connect(id, grant, fakeSocket());
    connection.receive(JSON.stringify({ type: 'control', action: 'take' }));
    other?.receive(JSON.stringify({ type: 'tab', action: 'open', url: 'https://x.test/' }));
    await tick();
    expect(instance.tabs()).toHaveLength(1);
  });

  it('says how many watch, and answers pings (not a flood of them)', async () => {
    const { model, id, grant, socket, connection } = await watched();
    expect(last(socket, 'viewers')).toMatchObject({ count: 1 });
    const other = model.liveViews.connect(id, grant, fakeSocket());
    expect(last(socket, 'viewers')).toMatchObject({ count: 2 });
    other?.closed();
    expect(last(socket, 'viewers')).toMatchObject({ count: 1 });
    for (let index = 1; index <= 50; index++)
      connection.receive(JSON.stringify({ type: 'ping', id: index }));
    expect(socket.texts.filter((text) => text.type === 'pong')).toEqual([{ type: 'pong', id: 1 }]);
    expect(socket.closedWith).toBeUndefined();
  });

  it('refuses malformed bar messages', async () => {
    for (const message of [
      { type: 'navigate', url: 'https://a.test', action: 'back' },
      { type: 'navigate', action: 'home' },
      { type: 'tab', action: 'close' },
      { type: 'tab', action: 'open' },
      { type: 'control', action: 'steal' },
      { type: 'ping', id: -1 },
      { type: 'navigate', url: 'x'.repeat(9000) },
    ]) {
      const { socket, connection } = await watched();
      connection.receive(JSON.stringify(message));
      expect(socket.closedWith, JSON.stringify(message).slice(0, 60)).toBe(LIVE_CLOSE.protocol);
    }
  });
});
