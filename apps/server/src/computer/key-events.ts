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
export function keyEvents(stroke: KeyStroke): [Record<string, unknown>, Record<string, unknown>] {
  const common: Record<string, unknown> = { key: stroke.key };
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
