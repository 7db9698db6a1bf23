import type { BinaryBody } from '@x/client';
import { type BrowserSession, countCharacters, type LiveView, type Replay } from '@x/types';
import { startSpinner } from '../output/progress.js';
import { BROWSER_ARG, type CommandSet, type CommandSpec, methodOf } from './command.js';
import { callOperation, listShow, operationCommand, pause, printResult } from './define.js';
import { OUTPUT_FLAG, outputTarget, type SavedFile, saveBinary, stdinForDash } from './files.js';
import { OPEN_FLAG, openUrl } from './open-url.js';
import { browserTable, browserView, liveViewText, replayTable, replayView } from './views.js';

const BROWSER = BROWSER_ARG;

/** `xb browsers …`, `xb computer …` and `xb replays …`. */
export const browserCommands: CommandSpec[] = [
  operationCommand<BrowserSession>('browsers', 'create', 'browsers.create', {
    example: 'xb browsers create --viewport \'{"width":1280,"height":800}\' --timeout-seconds 300',
    show: (context, session) => browserView(context.colors, session),
  }),
  operationCommand<BrowserSession[]>('browsers', 'list', 'browsers.list', {
    example: 'xb browsers list --json',
    show: listShow(browserTable, 'No browsers.'),
  }),
  operationCommand<BrowserSession>('browsers', 'get', 'browsers.get', {
    args: [BROWSER],
    example: 'xb browsers get br_x7Hq2K9mN4pL',
    show: (context, session) => browserView(context.colors, session),
  }),
  operationCommand<BrowserSession>('browsers', 'update', 'browsers.update', {
    args: [BROWSER],
    example:
      'xb browsers update checkout-agent --tags \'{"team":"shop"}\' --viewport \'{"width":1280,"height":720}\' --timeout-seconds 600',
    show: (context, session) => browserView(context.colors, session),
  }),
  operationCommand<BrowserSession>('browsers', 'rename', 'browsers.update', {
    summary: 'Rename a running browser ("" clears its name).',
    args: [BROWSER, { name: '<name>', field: 'name' }],
    example: 'xb browsers rename br_x7Hq2K9mN4pL checkout-agent',
    show: (context, session) =>
      session.name
        ? `${context.colors.green('✓')} Browser ${session.session_id} is named ${session.name}.`
        : `${context.colors.green('✓')} Browser ${session.session_id} has no name.`,
  }),
  operationCommand('browsers', 'delete', 'browsers.delete', {
    args: [BROWSER],
    example: 'xb browsers delete br_x7Hq2K9mN4pL',
    show: (context) => `${context.colors.green('✓')} Deleted browser ${context.input.id}.`,
  }),
  operationCommand<LiveView>('browsers', 'live', 'browsers.liveView.create', {
    args: [BROWSER],
    flags: [OPEN_FLAG],
    example: 'xb browsers live br_x7Hq2K9mN4pL --open   (--mode read: a link that only watches)',
    show: (context, view) => liveViewText(context.colors, view),
    run: async (context, show) => {
      const view = await callOperation<LiveView>(context, 'browsers.liveView.create');
      printResult(context, view, show);
      if (context.flags.open === true) await openUrl(context, view.url);
    },
  }),
  operationCommand('computer', 'type', 'browsers.computer.type', {
    args: [BROWSER, { name: '<text>', field: 'text' }],
    example:
      'xb computer type br_x7Hq2K9mN4pL "héllo 世界" --delay 50   (or - to read the text from stdin)',
    show: (context) =>
      `${context.colors.green('✓')} Typed ${countCharacters(context.input.text as string)} characters into ${context.input.id}.`,
    run: async (context, show) => {
      await stdinForDash(context, 'text', { trimNewline: true });
      printResult(context, await callOperation(context, 'browsers.computer.type'), show);
    },
  }),
  operationCommand<SavedFile>('computer', 'screenshot', 'browsers.computer.screenshot', {
    args: [BROWSER],
    flags: [OUTPUT_FLAG],
    example: 'xb computer screenshot br_x7Hq2K9mN4pL -o shot.png',
    show: (context, saved) =>
      `${context.colors.green('✓')} Saved the screenshot to ${saved.path} (${saved.bytes} bytes).`,
    run: async (context, show) => {
      const target = outputTarget(context, 'shot.png');
      const body = await callOperation<BinaryBody>(context, 'browsers.computer.screenshot');
      const saved = await saveBinary(context, body, target);
      if (target !== '-') printResult(context, saved, show);
    },
  }),
  operationCommand<Replay>('replays', 'start', 'browsers.replays.start', {
    args: [BROWSER],
    example: 'xb replays start br_x7Hq2K9mN4pL --framerate 10 --max-duration-in-seconds 600',
    show: (context, replay) => replayView(context.colors, replay),
  }),
  operationCommand<Replay[]>('replays', 'list', 'browsers.replays.list', {
    args: [BROWSER],
    example: 'xb replays list br_x7Hq2K9mN4pL',
    show: listShow(replayTable, 'No replays.'),
  }),
  operationCommand<Replay>('replays', 'stop', 'browsers.replays.stop', {
    args: [BROWSER, { name: '<replay>', field: 'replay_id' }],
    example: 'xb replays stop br_x7Hq2K9mN4pL rp_Kd82nQ0aLm3v',
    show: (context, replay) =>
      `${context.colors.green('✓')} Stopped replay ${replay.replay_id}; the video is ready (xb replays download).`,
  }),
  operationCommand<SavedFile>('replays', 'download', 'browsers.replays.download', {
    args: [BROWSER, { name: '<replay>', field: 'replay_id' }],
    flags: [OUTPUT_FLAG],
    example: 'xb replays download br_x7Hq2K9mN4pL rp_Kd82nQ0aLm3v -o replay.mp4',
    show: (context, saved) =>
      `${context.colors.green('✓')} Saved the replay to ${saved.path} (${saved.bytes} bytes).`,
    run: async (context, show) => {
      const target = outputTarget(context, 'replay.mp4');
      let spinner: ReturnType<typeof startSpinner> | undefined;
      try {
        for (;;) {
          const method = methodOf(await context.client(), 'browsers.replays.download');
          const { data, response } = await method(context.input, {
            signal: context.signal,
          }).withResponse();
          const outcome = data as { status: number; value: unknown };
          if (outcome.status === 200) {
            spinner?.stop();
            spinner = undefined;
            const saved = await saveBinary(context, outcome.value as BinaryBody, target);
            if (target !== '-') printResult(context, saved, show);
            return;
          }
          // 202: still recording or finalizing. Wait as long as the service asks (1–10 s).
          spinner ??= startSpinner(
            context.io.stderr,
            context.showsProgress,
            `Waiting for replay ${context.input.replay_id} to finish…`,
          );
          const seconds = Number(response.headers.get('retry-after'));
          await pause(
            context,
            Math.min(Math.max(Number.isFinite(seconds) ? seconds : 1, 1), 10) * 1000,
          );
        }
      } finally {
        spinner?.stop();
      }
    },
  }),
];

/** `xb browsers` and `xb replays`: the groups and their commands. */
export const browserSet: CommandSet = {
  groups: [
    { name: 'browsers', summary: 'Create, list, inspect and delete browser sessions' },
    { name: 'replays', summary: 'Record a browser’s screen and download the videos' },
  ],
  commands: browserCommands,
};
