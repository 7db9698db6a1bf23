import { describe, expect, it } from 'vitest';
import { keyEvents, keyStrokeFor } from './key-events.js';

describe('keyStrokeFor', () => {
  it('gives US keys for letters, digits and space, with their codes', () => {
    expect(keyStrokeFor('a')).toEqual({ key: 'a', code: 'KeyA', keyCode: 65, text: 'a' });
    expect(keyStrokeFor('Z')).toEqual({ key: 'Z', code: 'KeyZ', keyCode: 90, text: 'Z' });
    expect(keyStrokeFor('7')).toEqual({ key: '7', code: 'Digit7', keyCode: 55, text: '7' });
    expect(keyStrokeFor(' ')).toMatchObject({ code: 'Space', text: ' ' });
  });

  it('presses Enter for a newline (either kind) and Tab for a tab, which types nothing', () => {
    expect(keyStrokeFor('\n')).toMatchObject({ key: 'Enter', text: '\r' });
    expect(keyStrokeFor('\r')).toMatchObject({ key: 'Enter', text: '\r' });
    expect(keyStrokeFor('\t')).toEqual({ key: 'Tab', code: 'Tab', keyCode: 9 });
  });

  it('types any other character as itself', () => {
    for (const character of ['é', '世', '👋', '!'])
      expect(keyStrokeFor(character)).toEqual({ key: character, text: character });
  });
});

describe('keyEvents', () => {
  it('is a keyDown with the text, then a keyUp, for a key that types', () => {
    const [down, up] = keyEvents(keyStrokeFor('a'));
    expect(down).toMatchObject({ type: 'keyDown', key: 'a', text: 'a', unmodifiedText: 'a' });
    expect(down).toMatchObject({ windowsVirtualKeyCode: 65, nativeVirtualKeyCode: 65 });
    expect(up).toEqual({
      type: 'keyUp',
      key: 'a',
      code: 'KeyA',
      windowsVirtualKeyCode: 65,
      nativeVirtualKeyCode: 65,
    });
  });

  it('is a rawKeyDown without text for a key that only acts', () => {
    const [down] = keyEvents(keyStrokeFor('\t'));
    expect(down).toEqual({
      type: 'rawKeyDown',
      key: 'Tab',
      code: 'Tab',
      windowsVirtualKeyCode: 9,
      nativeVirtualKeyCode: 9,
    });
  });
});
