import { usageError } from '../cli-error.js';
import { BROWSER_ARG, type CommandContext, type CommandSet, type CommandSpec } from './command.js';
import { callOperation, operationCommand, printResult } from './define.js';
import { readStdin, stdinForDash } from './files.js';

const BROWSER = BROWSER_ARG;
const X = { name: '<x>', field: 'x', isNumber: true } as const;
const Y = { name: '<y>', field: 'y', isNumber: true } as const;

const done = (context: CommandContext, what: string) =>
  `${context.colors.green('✓')} ${what} on ${context.input.id}.`;

/** A drag point written `x,y`. */
function point(text: string): [number, number] {
  const match = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(text);
  if (!match) throw usageError(`A point is written x,y (such as 100,200), got "${text}".`);
  return [Number(match[1]), Number(match[2])];
}

/** `xb computer …` beyond type and screenshot: the mouse, keys, clipboard, cursor and batches. */
export const computerCommands: CommandSpec[] = [
  operationCommand('computer', 'click', 'browsers.computer.clickMouse', {
    args: [BROWSER, X, Y],
    example: 'xb computer click br_x7Hq2K9mN4pL 100 200 --button right --num-clicks 2',
    show: (context) => done(context, `Clicked at ${context.input.x},${context.input.y}`),
  }),
  operationCommand('computer', 'move', 'browsers.computer.moveMouse', {
    args: [BROWSER, X, Y],
    example: 'xb computer move br_x7Hq2K9mN4pL 400 300 --smooth --duration-ms 500',
    show: (context) => done(context, `Moved the mouse to ${context.input.x},${context.input.y}`),
  }),
  operationCommand('computer', 'drag', 'browsers.computer.dragMouse', {
    args: [BROWSER, { name: '<x,y...>', isVariadic: true }],
    example: 'xb computer drag br_x7Hq2K9mN4pL 10,10 200,10 200,200 --steps-per-segment 20',
    show: (context) => done(context, 'Dragged'),
    run: async (context, show) => {
      const points = (context.args['<x,y...>'] as string[]).map(point);
      if (points.length > 0) context.input.path = points;
      printResult(context, await callOperation(context, 'browsers.computer.dragMouse'), show);
    },
  }),
  operationCommand('computer', 'scroll', 'browsers.computer.scroll', {
    args: [BROWSER, X, Y],
    example:
      'xb computer scroll br_x7Hq2K9mN4pL 400 300 --delta-y 5   (notches; --delta-y=-5 scrolls up)',
    show: (context) => done(context, `Scrolled at ${context.input.x},${context.input.y}`),
  }),
  operationCommand('computer', 'press', 'browsers.computer.pressKey', {
    args: [BROWSER, { name: '<key...>', field: 'keys', isVariadic: true }],
    example: 'xb computer press br_x7Hq2K9mN4pL Ctrl+l Return --duration 0',
    show: (context) => done(context, `Pressed ${(context.input.keys as string[]).join(' ')}`),
  }),
  operationCommand<{ x: number; y: number }>(
    'computer',
    'position',
    'browsers.computer.getMousePosition',
    {
      args: [BROWSER],
      example: 'xb computer position br_x7Hq2K9mN4pL',
      show: (_context, position) => `${position.x},${position.y}`,
    },
  ),
  operationCommand('computer', 'cursor', 'browsers.computer.setCursorVisibility', {
    args: [BROWSER],
    example: 'xb computer cursor br_x7Hq2K9mN4pL --hidden   (--no-hidden shows it)',
    show: (context) => done(context, context.input.hidden ? 'Hid the cursor' : 'Showed the cursor'),
  }),
  operationCommand<{ text: string }>(
    'computer',
    'clipboard-read',
    'browsers.computer.readClipboard',
    {
      args: [BROWSER],
      example: 'xb computer clipboard-read br_x7Hq2K9mN4pL > copied.txt',
      show: (_context, clipboard) => clipboard.text,
    },
  ),
  operationCommand('computer', 'clipboard-write', 'browsers.computer.writeClipboard', {
    args: [BROWSER, { name: '<text>', field: 'text' }],
    example: 'xb computer clipboard-write br_x7Hq2K9mN4pL "to paste"   (or - to read stdin)',
    show: (context) => done(context, 'Put the text on the clipboard'),
    run: async (context, show) => {
      await stdinForDash(context, 'text');
      printResult(context, await callOperation(context, 'browsers.computer.writeClipboard'), show);
    },
  }),
  operationCommand('computer', 'batch', 'browsers.computer.batch', {
    args: [BROWSER, { name: '[actions]', isOptional: true }],
    example:
      'xb computer batch br_x7Hq2K9mN4pL \'[{"type":"click_mouse","click_mouse":{"x":10,"y":20}}]\'   (or - to read stdin, or --actions)',
    show: (context) => done(context, `Ran ${(context.input.actions as unknown[]).length} actions`),
    run: async (context, show) => {
      // The actions as an argument (or `-` for stdin) stand in for --actions.
      const given = context.args['[actions]'] as string | undefined;
      if (given !== undefined) {
        const text = given === '-' ? await readStdin(context) : given;
        try {
          context.input.actions = JSON.parse(text);
        } catch {
          throw usageError('[actions] must be a JSON array of actions (see --help).');
        }
      }
      printResult(context, await callOperation(context, 'browsers.computer.batch'), show);
    },
  }),
];

/** `xb computer`: the group and its commands. */
export const computerSet: CommandSet = {
  groups: [
    {
      name: 'computer',
      summary: 'Click, type, press keys, scroll, drag, use the clipboard and take screenshots',
    },
  ],
  commands: computerCommands,
};
