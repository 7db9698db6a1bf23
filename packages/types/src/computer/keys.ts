/**
 * Key names as the computer controls take them: X keysym names (`Return`, `Page_Up`, `F5`,
 * `ctrl`), the DOM's own names (`Enter`, `PageUp`, `ArrowLeft`) and single characters, case
 * insensitive for names. A combo joins keys with `+`: `Ctrl+Shift+Tab`. Each name resolves to the
 * DOM `key` value a page sees, so the server and the fake agree on what was pressed.
 */

/** The modifier keys, as the DOM names them. */
export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';

/** The modifiers' bits, as DevTools `Input.*` events carry them. */
export const MODIFIER_BITS: Readonly<Record<Modifier, number>> = {
  Alt: 1,
  Control: 2,
  Meta: 4,
  Shift: 8,
};

const MODIFIER_NAMES: Readonly<Record<string, Modifier>> = {
  alt: 'Alt',
  alt_l: 'Alt',
  alt_r: 'Alt',
  option: 'Alt',
  ctrl: 'Control',
  control: 'Control',
  control_l: 'Control',
  control_r: 'Control',
  shift: 'Shift',
  shift_l: 'Shift',
  shift_r: 'Shift',
  meta: 'Meta',
  meta_l: 'Meta',
  meta_r: 'Meta',
  super: 'Meta',
  super_l: 'Meta',
  super_r: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
  win: 'Meta',
};

/** Named keys that are not modifiers: keysym or DOM name (lower case) → DOM key. */
const NAMED_KEYS: Readonly<Record<string, string>> = {
  return: 'Enter',
  enter: 'Enter',
  kp_enter: 'Enter',
  tab: 'Tab',
  iso_left_tab: 'Tab',
  escape: 'Escape',
  esc: 'Escape',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  home: 'Home',
  end: 'End',
  page_up: 'PageUp',
  pageup: 'PageUp',
  prior: 'PageUp',
  page_down: 'PageDown',
  pagedown: 'PageDown',
  next: 'PageDown',
  left: 'ArrowLeft',
  arrowleft: 'ArrowLeft',
  right: 'ArrowRight',
  arrowright: 'ArrowRight',
  up: 'ArrowUp',
  arrowup: 'ArrowUp',
  down: 'ArrowDown',
  arrowdown: 'ArrowDown',
  space: ' ',
  caps_lock: 'CapsLock',
  capslock: 'CapsLock',
  num_lock: 'NumLock',
  numlock: 'NumLock',
  scroll_lock: 'ScrollLock',
  scrolllock: 'ScrollLock',
  pause: 'Pause',
  print: 'PrintScreen',
  printscreen: 'PrintScreen',
  menu: 'ContextMenu',
  contextmenu: 'ContextMenu',
  minus: '-',
  equal: '=',
  plus: '+',
  comma: ',',
  period: '.',
  slash: '/',
  backslash: '\\',
  semicolon: ';',
  colon: ':',
  apostrophe: "'",
  quoteright: "'",
  quotedbl: '"',
  grave: '`',
  quoteleft: '`',
  asciitilde: '~',
  bracketleft: '[',
  bracketright: ']',
  braceleft: '{',
  braceright: '}',
  parenleft: '(',
  parenright: ')',
  less: '<',
  greater: '>',
  question: '?',
  exclam: '!',
  at: '@',
  numbersign: '#',
  dollar: '$',
  percent: '%',
  asciicircum: '^',
  ampersand: '&',
  asterisk: '*',
  underscore: '_',
  bar: '|',
};

/** A key as a page sees it: the DOM `key` value. */
export interface ResolvedKey {
  readonly key: string;
  /** Set when the key is itself a modifier (`Shift` pressed alone). */
  readonly modifier?: Modifier;
}

/** The key one name means, or undefined for a name that is no key. */
export function resolveKey(name: string): ResolvedKey | undefined {
  if (name.length === 1) {
    const code = name.charCodeAt(0);
    // Printable ASCII: letters, digits, punctuation and space.
    return code >= 0x20 && code < 0x7f ? { key: name } : undefined;
  }
  const lower = name.toLowerCase();
  const modifier = MODIFIER_NAMES[lower];
  if (modifier) return { key: modifier, modifier };
  const named = NAMED_KEYS[lower];
  if (named !== undefined) return { key: named };
  const kp = /^kp_([0-9])$/.exec(lower);
  if (kp) return { key: kp[1] as string };
  const fn = /^f([1-9]|1[0-9]|2[0-4])$/.exec(lower);
  if (fn) return { key: `F${fn[1]}` };
  return undefined;
}

/** A combo such as `Ctrl+Shift+Tab`: the modifiers held and the key pressed. */
export interface KeyCombo {
  readonly modifiers: readonly Modifier[];
  readonly key: ResolvedKey;
}

/**
 * Parses a combo (`Ctrl+t`, `Ctrl+Shift+Tab`, `Return`, `+`, `Ctrl++`): every part but the last
 * must be a modifier. Undefined when a part names no key.
 */
export function parseKeyCombo(text: string): KeyCombo | undefined {
  if (text.length === 0 || text.length > 64) return undefined;
  // A trailing `+` after a separator is the plus key itself: `Ctrl++`.
  const parts =
    text === '+'
      ? ['+']
      : text.endsWith('++')
        ? [...text.slice(0, -2).split('+'), '+']
        : text.split('+');
  const keys = parts.map((part) => resolveKey(part.trim() === '' ? part : part.trim()));
  if (keys.some((key) => key === undefined)) return undefined;
  const resolved = keys as ResolvedKey[];
  const key = resolved.at(-1) as ResolvedKey;
  const held = resolved.slice(0, -1);
  if (held.some((part) => part.modifier === undefined)) return undefined;
  return { modifiers: held.map((part) => part.modifier as Modifier), key };
}

/**
 * Whether held modifiers make a key a shortcut (Control, Alt or Meta): it then types nothing, as
 * on a keyboard. Shift alone still types.
 */
export function isShortcut(modifiers: number): boolean {
  return (modifiers & (MODIFIER_BITS.Alt | MODIFIER_BITS.Control | MODIFIER_BITS.Meta)) !== 0;
}

/** The bits of a set of modifiers. */
export function modifierBits(modifiers: Iterable<Modifier>): number {
  let bits = 0;
  for (const modifier of modifiers) bits |= MODIFIER_BITS[modifier];
  return bits;
}
