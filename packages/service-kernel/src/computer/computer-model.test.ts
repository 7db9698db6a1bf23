import { describe, expect, it } from 'vitest';
import { BROWSER, testModel } from '../test-support/memory-engines.js';

async function newBrowser() {
  const test = testModel();
  const entry = await test.model.browsers.create(BROWSER, 'http://localhost');
  const instance = test.instances.get(entry.record.session_id);
  if (!instance) throw new Error('no instance');
  return { ...test, id: entry.record.session_id, instance };
}

describe('typing', () => {
  it('sends text without a delay at once, and nothing for empty text', async () => {
    const { model, id, instance } = await newBrowser();
    await model.computer.type(id, 'héllo 世界', 0, new AbortController().signal);
    await model.computer.type(id, '', 0, new AbortController().signal);
    expect(instance.typed.map((entry) => entry.text)).toEqual(['héllo 世界']);
  });

  it('paces a delay between characters, by code point', async () => {
    const { model, id, instance } = await newBrowser();
    await model.computer.type(id, 'a👋c', 40, new AbortController().signal);
    expect(instance.typed.map((entry) => entry.text)).toEqual(['a', '👋', 'c']);
    const [first, , last] = instance.typed;
    expect((last?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(2 * 40 - 5);
  });

  it('types not one more character once its caller went away', async () => {
    const { model, id, instance } = await newBrowser();
    const controller = new AbortController();
    const typing = model.computer.type(id, 'abcdef', 100, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 150));
    controller.abort();
    await typing;
    const typed = instance.typed.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(instance.typed.length).toBe(typed);
    expect(typed).toBe(2);
  });

  it('takes one input at a time: a second call types after the first', async () => {
    const { model, id, instance } = await newBrowser();
    const signal = new AbortController().signal;
    await Promise.all([
      model.computer.type(id, 'ab', 30, signal),
      model.computer.type(id, 'cd', 0, signal),
    ]);
    expect(instance.typed.map((entry) => entry.text).join('')).toBe('abcd');
  });
});
