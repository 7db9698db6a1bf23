import type { LiveInput } from '../computer/computer-model.js';
import type { InputButton } from '../engines.js';

/** What a person asks of the session's tabs from a control link (not input: never held). */
export type TabRequest =
  | { readonly type: 'navigate'; readonly url: string }
  | { readonly type: 'navigate'; readonly action: 'back' | 'forward' | 'reload' }
  | { readonly type: 'tab'; readonly action: 'activate' | 'close'; readonly id: string }
  | { readonly type: 'tab'; readonly action: 'open'; readonly url: string };

/**
 * What a live view page may send: acks, its size, pings (for the latency it shows), and (control
 * links only) input, control taken or let go, and where the tabs go.
 */
export type ViewerMessage =
  | { readonly type: 'ack'; readonly seq: number }
  | { readonly type: 'size'; readonly width: number; readonly height: number }
  | { readonly type: 'ping'; readonly id: number }
  | { readonly type: 'control'; readonly action: 'take' | 'release' }
  | TabRequest
  | LiveInput;

/** Longest address a page may send a tab to (as the address bar checks it too). */
const MAX_URL_CHARS = 8192;

/** Longest tab id (a DevTools target id is 32 hex digits). */
const MAX_TAB_ID_CHARS = 64;

/** Longest text one message may type (a paste is sent in pieces of this). */
export const MAX_TEXT_CHARS = 4096;

/** Longest key name (`ArrowLeft`, `MediaPlayPause`, or one character). */
const MAX_KEY_CHARS = 32;

/** Largest scroll one wheel message may ask for, in CSS pixels. */
const MAX_WHEEL_DELTA = 10_000;

const BUTTONS: readonly InputButton[] = ['none', 'left', 'right', 'middle', 'back', 'forward'];

type Fields = Record<string, unknown>;

const isNumber = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;

const isInteger = (value: unknown, min: number, max: number): value is number =>
  isNumber(value, min, max) && Number.isInteger(value);

/** Modifier bits: Alt 1, Control 2, Meta 4, Shift 8. */
const isModifiers = (value: unknown): value is number => isInteger(value, 0, 15);

/** A point, loosely bounded: the model holds it inside the viewport. */
const isCoordinate = (value: unknown): value is number => isNumber(value, -100_000, 100_000);

function mouse(fields: Fields): ViewerMessage | undefined {
  const { event, x, y, button, clickCount, modifiers } = fields;
  if (event !== 'move' && event !== 'down' && event !== 'up') return undefined;
  if (!isCoordinate(x) || !isCoordinate(y) || !isModifiers(modifiers)) return undefined;
  if (!BUTTONS.includes(button as InputButton) || !isInteger(clickCount, 0, 3)) return undefined;
  return { type: 'mouse', event, x, y, button: button as InputButton, clickCount, modifiers };
}

function wheel(fields: Fields): ViewerMessage | undefined {
  const { x, y, deltaX, deltaY, modifiers } = fields;
  if (!isCoordinate(x) || !isCoordinate(y) || !isModifiers(modifiers)) return undefined;
  if (!isNumber(deltaX, -MAX_WHEEL_DELTA, MAX_WHEEL_DELTA)) return undefined;
  if (!isNumber(deltaY, -MAX_WHEEL_DELTA, MAX_WHEEL_DELTA)) return undefined;
  return { type: 'wheel', x, y, deltaX, deltaY, modifiers };
}

function key(fields: Fields): ViewerMessage | undefined {
  const { event, key: name, modifiers } = fields;
  if (event !== 'down' && event !== 'up') return undefined;
  if (typeof name !== 'string' || name === '' || name.length > MAX_KEY_CHARS) return undefined;
  if (!isModifiers(modifiers)) return undefined;
  return { type: 'key', event, key: name, modifiers };
}

const isUrl = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_URL_CHARS;

function navigate(fields: Fields): ViewerMessage | undefined {
  const { url, action } = fields;
  if (url !== undefined)
    return isUrl(url) && action === undefined ? { type: 'navigate', url } : undefined;
  return action === 'back' || action === 'forward' || action === 'reload'
    ? { type: 'navigate', action }
    : undefined;
}

function tab(fields: Fields): ViewerMessage | undefined {
  const { action, id, url } = fields;
  if (action === 'open') return isUrl(url) ? { type: 'tab', action, url } : undefined;
  if (action !== 'activate' && action !== 'close') return undefined;
  return typeof id === 'string' && id !== '' && id.length <= MAX_TAB_ID_CHARS
    ? { type: 'tab', action, id }
    : undefined;
}

/**
 * A message from a live view page, checked field by field and bounded (a socket is hostile input
 * like any other); undefined for anything else, which ends the socket.
 */
export function parseViewerMessage(text: string): ViewerMessage | undefined {
  let fields: Fields;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    fields = parsed as Fields;
  } catch {
    return undefined;
  }
  switch (fields.type) {
    case 'ack':
      return isInteger(fields.seq, 0, Number.MAX_SAFE_INTEGER)
        ? { type: 'ack', seq: fields.seq }
        : undefined;
    case 'size':
      return isNumber(fields.width, 1, 100_000) && isNumber(fields.height, 1, 100_000)
        ? { type: 'size', width: fields.width, height: fields.height }
        : undefined;
    case 'mouse':
      return mouse(fields);
    case 'wheel':
      return wheel(fields);
    case 'key':
      return key(fields);
    case 'text':
      return typeof fields.text === 'string' && fields.text.length <= MAX_TEXT_CHARS
        ? { type: 'text', text: fields.text }
        : undefined;
    case 'ping':
      return isInteger(fields.id, 0, Number.MAX_SAFE_INTEGER)
        ? { type: 'ping', id: fields.id }
        : undefined;
    case 'control':
      return fields.action === 'take' || fields.action === 'release'
        ? { type: 'control', action: fields.action }
        : undefined;
    case 'navigate':
      return navigate(fields);
    case 'tab':
      return tab(fields);
    default:
      return undefined;
  }
}
