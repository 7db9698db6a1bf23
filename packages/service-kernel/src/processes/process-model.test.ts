import { describe, expect, it } from 'vitest';
import type { BrowserLimits } from '../model-context.js';
import { BROWSER, testModel } from '../test-support/memory-engines.js';

const ORIGIN = 'http://localhost:1';
const SLEEP = { command: 'sleep', args: ['60'], env: {} };
const bytes = (text: string) => new TextEncoder().encode(text);

async function browserWith(limits: Partial<BrowserLimits>) {
  const test = testModel({ limits });
  const entry = await test.model.browsers.create(BROWSER, ORIGIN);
  return { ...test, id: entry.record.session_id, entry };
}

describe('process limits', () => {
  it('refuses one more running process than a browser may run (409), and takes one once room comes', async () => {
    const { model, id, processes } = await browserWith({ processes: 2 });
    model.processes.spawn(id, SLEEP);
    model.processes.spawn(id, SLEEP);
    expect(() => model.processes.spawn(id, SLEEP)).toThrow(
      `Browser "${id}" runs 2 processes, the most it may: wait for one to end, or kill one.`,
    );
    processes[0]?.events.exit({ code: 0, signal: null });
    expect(model.processes.spawn(id, SLEEP).process_id).toBeDefined();
  });

  it('forgets the oldest ended processes past what a browser keeps', async () => {
    const { model, id, processes } = await browserWith({ endedProcesses: 2 });
    const ids = [0, 1, 2].map(() => model.processes.spawn(id, SLEEP).process_id);
    for (const process of processes) process.events.exit({ code: 0, signal: null });
    expect(() => model.processes.status(id, ids[0] as string)).toThrow(/No process/);
    expect(model.processes.status(id, ids[2] as string).state).toBe('exited');
  });

  it('keeps a bounded tail of output and says in exec how much was dropped', async () => {
    const { model, id, processes, entry } = await browserWith({ processOutputBytes: 8 });
    const result = model.processes.exec(
      id,
      { command: 'chatty', args: [], env: {} },
      new AbortController().signal,
    );
    const process = processes[0];
    for (const word of ['aaaa', 'bbbb', 'cccc']) process?.events.output('stdout', bytes(word));
    process?.events.exit({ code: 0, signal: null });
    const done = await result;
    expect(Buffer.from(done.stdout_b64, 'base64').toString()).toBe('bbbbcccc');
    expect(done.dropped_bytes).toBe(4);
    expect(entry.processes.size).toBe(1);
  });

  it('lets a deleted browser take its processes and their output along', async () => {
    const { model, id, entry } = await browserWith({});
    model.processes.spawn(id, SLEEP);
    await model.browsers.delete(id);
    expect(entry.processes.size).toBe(0);
  });
});

describe('watch limits', () => {
  it('refuses one more watch than a browser may hold (409), and takes one once another stops', async () => {
    const { model, id } = await browserWith({ watches: 1 });
    const first = await model.watches.start(id, '/home/browser', false);
    await expect(model.watches.start(id, '/home/browser', false)).rejects.toThrow(
      `Browser "${id}" has 1 watches, the most it may: stop one first.`,
    );
    model.watches.stop(id, first.watch_id);
    expect((await model.watches.start(id, '/home/browser', false)).watch_id).toBeDefined();
  });

  it('counts a watch still starting, and ends it with a browser that ends meanwhile (404)', async () => {
    const { model, id, engines } = await browserWith({ watches: 1 });
    let closed = 0;
    let release: () => void = () => undefined;
    engines.watcher.watch = () =>
      new Promise((resolve) => {
        release = () => resolve({ close: () => closed++ });
      });
    const starting = model.watches.start(id, '/home/browser', false);
    await expect(model.watches.start(id, '/home/browser', false)).rejects.toThrow(/1 watches/);
    await model.browsers.delete(id);
    release();
    await expect(starting).rejects.toThrow(/No browser session/);
    expect(closed).toBe(1);
  });
});
