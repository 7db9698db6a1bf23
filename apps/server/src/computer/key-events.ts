import { isShortcut } from '@x/types';

/** The DevTools key events of one character, as a US keyboard sends them where it can. */
export interface KeyStroke {
  readonly key: string;
  readonly code?: string;
  readonly keyCode?: number;
  /** What the keystroke types; none for keys that only act (Tab). */
  readonly text?: string;
}

/**
 * The keystroke for a character: Enter for `\n`, Tab for `\t`, the US key for ASCII letters,
 * digits and space, and for anything else (accents, CJK, emoji) a key whose value is the character
 * itself, which Chromium types as it is, with keydown and keyup around it.
 */
export function keyStrokeFor(character: string): KeyStroke {
  if (character === '\n' || character === '\r')
    return { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' };
  if (character === '\t') return { key: 'Tab', code: 'Tab', keyCode: 9 };
  if (character === ' ') return { key: ' ', code: 'Space', keyCode: 32, text: ' ' };
  if (/^[a-zA-Z]$/.test(character)) {
    return {
      key: character,
      code: `Key${character.toUpperCase()}`,
      keyCode: character.toUpperCase().charCodeAt(0),
      text: character,
    };
  }
  if (/^[0-9]$/.test(character))
    return {
      key: character,
      code: `Digit${character}`,
      keyCode: character.charCodeAt(0),
      text: character,
    };
  return { key: character, text: character };
}

/** The two DevTools `Input.dispatchKeyEvent` parameter sets of a keystroke: down, then up. */
export function keyEvents(
  stroke: KeyStroke,
  modifiers = 0,
): [Record<string, unknown>, Record<string, unknown>] {
  const common: Record<string, unknown> = { key: stroke.key };
  if (modifiers !== 0) common.modifiers = modifiers;
  if (stroke.code) common.code = stroke.code;
  if (stroke.keyCode !== undefined) {
    common.windowsVirtualKeyCode = stroke.keyCode;
    common.nativeVirtualKeyCode = stroke.keyCode;
  }
  const down =
    stroke.text === undefined
      ? { ...common, type: 'rawKeyDown' }
      : { ...common, type: 'keyDown', text: stroke.text, unmodifiedText: stroke.text };
  return [down, { ...common, type: 'keyUp' }];
}

/** Named keys' DOM codes and Windows key codes (what DevTools wants with a key's name). */
const NAMED: Readonly<Record<string, readonly [code: string, keyCode: number, text?: string]>> = {
  Enter: ['Enter', 13, '\r'],
  Tab: ['Tab', 9],
  Escape: ['Escape', 27],
  Backspace: ['Backspace', 8],
  Delete: ['Delete', 46],
  Insert: ['Insert', 45],
  Home: ['Home', 36],
  End: ['End', 35],
  PageUp: ['PageUp', 33],
  PageDown: ['PageDown', 34],
  ArrowLeft: ['ArrowLeft', 37],
  ArrowUp: ['ArrowUp', 38],
  ArrowRight: ['ArrowRight', 39],
  ArrowDown: ['ArrowDown', 40],
  CapsLock: ['CapsLock', 20],
  NumLock: ['NumLock', 144],
  ScrollLock: ['ScrollLock', 145],
  Pause: ['Pause', 19],
  PrintScreen: ['PrintScreen', 44],
  ContextMenu: ['ContextMenu', 93],
  Shift: ['ShiftLeft', 16],
  Control: ['ControlLeft', 17],
  Alt: ['AltLeft', 18],
  Meta: ['MetaLeft', 91],
};

/** US-keyboard punctuation: the key's DOM code and Windows key code. */
const PUNCTUATION: Readonly<Record<string, readonly [code: string, keyCode: number]>> = {
  '-': ['Minus', 189],
  _: ['Minus', 189],
  '=': ['Equal', 187],
  '+': ['Equal', 187],
  ',': ['Comma', 188],
  '<': ['Comma', 188],
  '.': ['Period', 190],
  '>': ['Period', 190],
  '/': ['Slash', 191],
  '?': ['Slash', 191],
  ';': ['Semicolon', 186],
  ':': ['Semicolon', 186],
  "'": ['Quote', 222],
  '"': ['Quote', 222],
  '`': ['Backquote', 192],
  '~': ['Backquote', 192],
  '[': ['BracketLeft', 219],
  '{': ['BracketLeft', 219],
  ']': ['BracketRight', 221],
  '}': ['BracketRight', 221],
  '\\': ['Backslash', 220],
  '|': ['Backslash', 220],
  '!': ['Digit1', 49],
  '@': ['Digit2', 50],
  '#': ['Digit3', 51],
  $: ['Digit4', 52],
  '%': ['Digit5', 53],
  '^': ['Digit6', 54],
  '&': ['Digit7', 55],
  '*': ['Digit8', 56],
  '(': ['Digit9', 57],
  ')': ['Digit0', 48],
};

/**
 * The keystroke of a DOM key value (`a`, `Enter`, `F5`, `Shift`, `;`): its code and key code as a
 * US keyboard has them, and the text it types, if any. With Control, Alt or Meta held a key types
 * nothing (it is a shortcut), as on a real keyboard.
 */
export function keyStrokeOfKey(key: string, modifiers: number): KeyStroke {
  const typesNothing = isShortcut(modifiers);
  const fn = /^F([1-9]|1[0-9]|2[0-4])$/.exec(key);
  if (fn) return { key, code: key, keyCode: 111 + Number(fn[1]) };
  const named = NAMED[key];
  if (named) {
    const [code, keyCode, text] = named;
    return text === undefined || typesNothing
      ? { key, code, keyCode }
      : { key, code, keyCode, text };
  }
  if (key.length === 1) {
    const stroke = keyStrokeFor(key);
    const punctuation = PUNCTUATION[key];
    const withCode = punctuation
      ? { ...stroke, code: punctuation[0], keyCode: punctuation[1] }
      : stroke;
    if (!typesNothing) return withCode;
    const { text: _, ...rest } = withCode;
    return rest;
  }
  return { key };
}
