import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';
import { onlyJson, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });

describe.each(TRANSPORTS)('computer commands (%s)', (_, overHttp) => {
  const { run, newBrowser } = xbAgainst(fake, overHttp);

  it('click, move, scroll and position work with numbers; a word for a number is a usage error', async () => {
    const id = await newBrowser();
    expect(await run(['computer', 'click', id, '100', '200', '--button', 'right'])).toMatchObject({
      code: 0,
      stdout: `✓ Clicked at 100,200 on ${id}.\n`,
    });
    fake.journal.assertCalled('browsers.computer.clickMouse', {
      body: { x: 100, y: 200, button: 'right' },
    });
    expect(
      (await run(['computer', 'move', id, '5', '6', '--smooth', '--duration-ms', '50'])).code,
    ).toBe(0);
    expect((await run(['computer', 'position', id])).stdout).toBe('5,6\n');
    expect(onlyJson((await run(['computer', 'position', id, '--json'])).stdout)).toEqual({
      x: 5,
      y: 6,
    });
    expect((await run(['computer', 'scroll', id, '1', '1', '--delta-y=-3'])).code).toBe(0);
    expect(fake.inputs(id).at(-1)).toMatchObject({ kind: 'wheel', deltaY: -300 });
    const bad = await run(['computer', 'click', id, 'ten', '20']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<x> must be a number, got "ten"');
    const off = await run(['computer', 'click', id, '5000', '20']);
    expect(off.code).not.toBe(0);
    expect(off.stderr).toContain("x must be less than 1920, the viewport's width");
  });

  it('drag takes points as x,y; press takes keys and combos', async () => {
    const id = await newBrowser();
    expect(
      (await run(['computer', 'drag', id, '10,10', '20,20', '--step-delay-ms', '0'])).code,
    ).toBe(0);
    fake.journal.assertCalled('browsers.computer.dragMouse', {
      body: {
        path: [
          [10, 10],
          [20, 20],
        ],
        step_delay_ms: 0,
      },
    });
    expect((await run(['computer', 'drag', id, '10;10', '20,20'])).stderr).toContain(
      'A point is written x,y',
    );
    expect(await run(['computer', 'press', id, 'Ctrl+a', 'Return'])).toMatchObject({
      code: 0,
      stdout: `✓ Pressed Ctrl+a Return on ${id}.\n`,
    });
    const keys = fake.inputs(id).filter((input) => input.kind === 'key');
    expect(keys.map((input) => `${input.type}:${input.key}`)).toEqual([
      'down:Control',
      'down:a',
      'up:a',
      'up:Control',
      'down:Enter',
      'up:Enter',
    ]);
    const unknown = await run(['computer', 'press', id, 'Hyper+q']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('names no known key or combo');
  });

  it('clipboard-write (text or stdin), clipboard-read, cursor and batch', async () => {
    const id = await newBrowser();
    expect(
      (await run(['computer', 'clipboard-write', id, '-'], { stdin: 'from stdin' })).code,
    ).toBe(0);
    expect((await run(['computer', 'clipboard-read', id])).stdout).toBe('from stdin\n');
    fake.clipboard(id, 'copied by the page');
    expect(onlyJson((await run(['computer', 'clipboard-read', id, '--json'])).stdout)).toEqual({
      text: 'copied by the page',
    });
    expect((await run(['computer', 'cursor', id, '--hidden'])).stdout).toBe(
      `✓ Hid the cursor on ${id}.\n`,
    );
    const actions = JSON.stringify([
      { type: 'click_mouse', click_mouse: { x: 1, y: 2 } },
      { type: 'type_text', type_text: { text: 'ok' } },
    ]);
    expect((await run(['computer', 'batch', id, actions])).stdout).toBe(
      `✓ Ran 2 actions on ${id}.\n`,
    );
    expect(fake.typedText(id)).toBe('ok');
    expect((await run(['computer', 'batch', id, '{not json'])).stderr).toContain(
      '[actions] must be a JSON array',
    );
    const flag = JSON.stringify([{ type: 'press_key', press_key: { keys: ['a'] } }]);
    expect((await run(['computer', 'batch', id, '--actions', flag])).stdout).toBe(
      `✓ Ran 1 actions on ${id}.\n`,
    );
  });
});
