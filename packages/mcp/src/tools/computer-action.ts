import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { bounded, errorResult, messageOf, ToolInputError } from '../results.js';
import { defineTool, sessionIdInput } from '../tool.js';

const x = z.number().int().describe('x in CSS pixels of the viewport, from 0 at the left');
const y = z.number().int().describe('y in CSS pixels of the viewport, from 0 at the top');
const holdKeys = z
  .array(z.string())
  .optional()
  .describe('keys held down through the action: shift, ctrl, alt, meta');

/** What each action takes, under its type's name, as the API's batch takes it. */
const PARAMS = {
  click_mouse: z.strictObject({
    x,
    y,
    button: z
      .enum(['left', 'right', 'middle', 'back', 'forward'])
      .optional()
      .describe('default left'),
    click_type: z
      .enum(['down', 'up', 'click'])
      .optional()
      .describe('press, release or both (default)'),
    num_clicks: z.number().int().optional().describe('2 is a double click; default 1'),
    hold_keys: holdKeys,
  }),
  move_mouse: z.strictObject({
    x,
    y,
    smooth: z.boolean().optional().describe('move along a human-like path'),
    duration_ms: z.number().int().optional().describe('how long a smooth move takes'),
    hold_keys: holdKeys,
  }),
  type_text: z.strictObject({
    text: z.string().describe('text typed key by key, as a person types it'),
    delay: z.number().int().optional().describe('ms between keystrokes, default 0'),
  }),
  press_key: z.strictObject({
    keys: z
      .array(z.string())
      .describe('keys or combos pressed in turn: Return, Tab, ctrl+a, ctrl+shift+t'),
    duration: z.number().int().optional().describe('ms each key is held down, default 0'),
    hold_keys: holdKeys,
  }),
  scroll: z.strictObject({
    x,
    y,
    delta_x: z.number().int().optional().describe('wheel notches right (negative: left)'),
    delta_y: z
      .number()
      .int()
      .optional()
      .describe('wheel notches down (negative: up); a notch is 100 px'),
    hold_keys: holdKeys,
  }),
  drag_mouse: z.strictObject({
    path: z
      .array(z.tuple([z.number().int(), z.number().int()]))
      .describe('points [x, y] to drag through, at least 2'),
    button: z.enum(['left', 'middle', 'right']).optional(),
    delay: z.number().int().optional().describe('ms after pressing, before moving'),
    steps_per_segment: z.number().int().optional(),
    step_delay_ms: z.number().int().optional(),
    smooth: z.boolean().optional(),
    duration_ms: z.number().int().optional(),
    hold_keys: holdKeys,
  }),
  set_cursor: z.strictObject({
    hidden: z.boolean().describe('hide (true) or show the mouse cursor'),
  }),
  sleep: z.strictObject({ duration_ms: z.number().int().describe('pause, ms') }),
  write_clipboard: z.strictObject({ text: z.string().describe('text put on the clipboard') }),
  screenshot: z.strictObject({
    region: z
      .strictObject({
        x: z.number().int(),
        y: z.number().int(),
        width: z.number().int(),
        height: z.number().int(),
      })
      .optional()
      .describe('the part of the viewport to capture, default all of it'),
  }),
  read_clipboard: z.strictObject({}),
  get_mouse_position: z.strictObject({}),
} as const;

type ActionType = keyof typeof PARAMS;
const TYPES = Object.keys(PARAMS) as [ActionType, ...ActionType[]];
/** Actions the API runs as one input, in one batch call. */
const BATCHED = new Set<ActionType>([
  'click_mouse',
  'move_mouse',
  'type_text',
  'press_key',
  'scroll',
  'drag_mouse',
  'set_cursor',
  'sleep',
]);
/** Actions that answer data: they come after every other action. */
/**
 * Bytes of one screenshot an answer carries at most (as PNG, before base64): what models take as
 * one image. A larger one is left out, saying so and how to ask for less.
 */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

const ANSWERING = new Set<ActionType>(['screenshot', 'read_clipboard', 'get_mouse_position']);
/** Actions that take nothing, so their params may be left out. */
const NO_PARAMS = new Set<ActionType>(['screenshot', 'read_clipboard', 'get_mouse_position']);

const actionSchema = z.strictObject({
  type: z.enum(TYPES).describe('the kind of action'),
  ...Object.fromEntries(
    TYPES.map((type) => [type, PARAMS[type].optional().describe(`what ${type} takes`)]),
  ),
}) as z.ZodObject<
  { type: z.ZodEnum<{ [K in ActionType]: K }> } & {
    [K in ActionType]: z.ZodOptional<(typeof PARAMS)[K]>;
  }
>;

type Action = z.infer<typeof actionSchema>;

/** An action as the API's batch takes it. */
function batchAction(type: ActionType, params: unknown) {
  return { type, [type]: params } as never;
}

/** The action's params, checked against its type: a ToolInputError says what is wrong. */
function paramsOf(action: Action, index: number): Record<string, unknown> {
  const others = TYPES.filter((type) => type !== action.type && action[type] !== undefined);
  if (others.length > 0) {
    throw new ToolInputError(
      `actions[${index}] is a ${action.type} but carries ${others.join(', ')}: put its parameters under "${action.type}".`,
    );
  }
  const params = action[action.type] as Record<string, unknown> | undefined;
  if (params === undefined && !NO_PARAMS.has(action.type)) {
    throw new ToolInputError(
      `actions[${index}] is a ${action.type} without its parameters: add "${action.type}": { … }.`,
    );
  }
  return params ?? {};
}

/** `computer_action`: mouse, keyboard, clipboard and screenshots, batched. */
export const computerAction = defineTool({
  name: 'computer_action',
  title: 'Use the mouse, keyboard and screen',
  description: [
    'Drives a browser\'s screen as a person would: ordered actions run in one call. Each action is `{ type, <type>: parameters }`, e.g. `{ "type": "click_mouse", "click_mouse": { "x": 120, "y": 340 } }`.',
    'Types: click_mouse, move_mouse, type_text, press_key (keys or combos like ctrl+a, Return), scroll (wheel notches), drag_mouse (a path of points), set_cursor, sleep, write_clipboard; and three that answer: screenshot (the viewport or a region, as an image), read_clipboard, get_mouse_position, which come after every other action.',
    'Coordinates are CSS pixels of the viewport. Take a screenshot first to find where to click, and end with one to see what your actions did: finish every batch with a screenshot, unless what you need is text on the page, which execute_playwright_code reads for less.',
    'The first action that fails stops the rest; the error says which.',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  input: {
    session_id: sessionIdInput,
    actions: z.array(actionSchema).min(1).describe('the actions, run in order'),
  },
  async run({ session_id: id, actions }, { client, call, maxTextChars }) {
    const checked = actions.map((action, index) => ({
      type: action.type,
      params: paramsOf(action, index),
      index,
    }));
    const firstAnswering = checked.findIndex((action) => ANSWERING.has(action.type));
    const late =
      firstAnswering === -1
        ? undefined
        : checked.slice(firstAnswering).find((action) => !ANSWERING.has(action.type));
    if (late) {
      throw new ToolInputError(
        `actions[${late.index}] (${late.type}) comes after actions[${firstAnswering}] (${checked[firstAnswering]?.type}): screenshot, read_clipboard and get_mouse_position answer data and must come last.`,
      );
    }
    const content: CallToolResult['content'] = [];
    let done = 0;
    let index = 0;
    try {
      while (index < checked.length) {
        const action = checked[index] as (typeof checked)[number];
        if (BATCHED.has(action.type)) {
          let end = index;
          while (end < checked.length && BATCHED.has((checked[end] as typeof action).type)) end++;
          const run = checked.slice(index, end);
          await client.browsers.computer.batch(
            { id, actions: run.map((each) => batchAction(each.type, each.params)) },
            call,
          );
          done = end;
          index = end;
          continue;
        }
        if (action.type === 'write_clipboard') {
          await client.browsers.computer.writeClipboard(
            { id, ...(action.params as { text: string }) },
            call,
          );
        } else if (action.type === 'screenshot') {
          const png = await (
            await client.browsers.computer.screenshot({ id, ...action.params }, call)
          ).bytes();
          content.push(
            png.byteLength > MAX_IMAGE_BYTES
              ? {
                  type: 'text',
                  text: `[cut: the screenshot is ${png.byteLength} bytes, past the ${MAX_IMAGE_BYTES} one answer carries; ask for a region of the viewport (screenshot { region })]`,
                }
              : { type: 'image', data: Buffer.from(png).toString('base64'), mimeType: 'image/png' },
          );
        } else if (action.type === 'read_clipboard') {
          const { text } = await client.browsers.computer.readClipboard({ id }, call);
          content.push({
            type: 'text',
            text: `Clipboard: ${bounded(JSON.stringify(text), maxTextChars)}`,
          });
        } else {
          const position = await client.browsers.computer.getMousePosition({ id }, call);
          content.push({ type: 'text', text: `Mouse at x=${position.x}, y=${position.y}.` });
        }
        done = ++index;
      }
    } catch (error) {
      if (error instanceof ToolInputError) throw error;
      const failed = checked[index] as (typeof checked)[number];
      const span = BATCHED.has(failed.type)
        ? batchSpan(checked, index)
        : `actions[${index}] (${failed.type})`;
      return errorResult(
        `Stopped at ${span} after ${done} of ${checked.length} actions ran: ${messageOf(error)}`,
      );
    }
    return {
      content: [
        { type: 'text', text: `Ran ${checked.length} action${checked.length === 1 ? '' : 's'}.` },
        ...content,
      ],
    };
  },
});

/** The batch starting at `start`, as a span of the caller's indexes. */
function batchSpan(checked: readonly { type: ActionType }[], start: number): string {
  let end = start;
  while (end + 1 < checked.length && BATCHED.has((checked[end + 1] as { type: ActionType }).type))
    end++;
  return end === start ? `actions[${start}]` : `the batch of actions[${start}]–actions[${end}]`;
}
