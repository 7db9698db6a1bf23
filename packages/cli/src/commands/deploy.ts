import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EventStream, UploadProgress } from '@x/client';
import type {
  AppVersion,
  Deployment,
  DeploymentEvent,
  Invocation,
  InvocationEvent,
} from '@x/types';
import { CliError, usageError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgressBar } from '../output/progress.js';
import { appArchive } from './app-archive.js';
import type { CommandContext, CommandSet, CommandSpec } from './command.js';
import { callOperation, follow, listShow, operationCommand, pause, printResult } from './define.js';
import { appTable, deploymentTable, deploymentView } from './views.js';

const DEPLOYMENT = { name: '<id>', field: 'id' } as const;

/** A variable name the service takes. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * Reads a dotenv file: `NAME=value` lines, `export ` allowed before, `#` comments, values in
 * single or double quotes (double-quoted ones with \n escapes).
 */
export function parseEnvFile(text: string, shown: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([^=\s]+)\s*=\s*(.*)$/.exec(line);
    if (!match || !ENV_NAME.test(match[1] as string)) {
      throw usageError(`${shown}:${index + 1} is not NAME=value: fix the line.`);
    }
    let value = match[2] as string;
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1).replaceAll('\\n', '\n').replaceAll('\\"', '"');
    } else if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
      value = value.slice(1, -1);
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    env[match[1] as string] = value;
  }
  return env;
}

/** The deployment's environment: --env-file's, then --env's over it. */
async function envOf(context: CommandContext): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  const file = context.flags['env-file'] as string | undefined;
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(resolve(context.io.cwd, file), 'utf8');
    } catch (error) {
      throw usageError(
        `Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}): give a dotenv file.`,
      );
    }
    Object.assign(env, parseEnvFile(text, file));
  }
  const given = context.flags.env as unknown;
  if (given !== undefined) {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw usageError('--env takes a JSON object of names to values: --env \'{"API_KEY":"…"}\'.');
    }
    for (const [name, value] of Object.entries(given)) {
      if (!ENV_NAME.test(name) || typeof value !== 'string') {
        throw usageError(`--env: ${name} must be a variable name with a string value.`);
      }
      env[name] = value;
    }
  }
  return env;
}

/**
 * Follows a deployment to its end, saying each step on stderr (the install's log dimmed); the
 * deployment it ended as. With --json, each event is a line on stdout.
 */
export async function followDeployment(context: CommandContext, id: string): Promise<Deployment> {
  const { stderr } = context.io;
  const colors = context.errorColors;
  const stream = await callOperation<EventStream<DeploymentEvent>>(context, 'deployments.events', {
    id,
  });
  await follow(context, stream, (event) => {
    if (event.event === 'log') stderr.write(`${colors.dim(event.message)}\n`);
    else if (event.event === 'app_version_summary') {
      stderr.write(
        `${colors.green('+')} app ${event.app_name} ${event.version}: ${event.actions.map((action) => action.name).join(', ')}\n`,
      );
    } else if (event.event === 'deployment_state') {
      stderr.write(`${colors.dim('…')} ${event.deployment.status.replace('_', ' ')}\n`);
    } else if (event.event === 'error') {
      stderr.write(`${colors.red('!')} ${event.error.message}\n`);
    }
  });
  // The stream ends at a final state; the record says how it ended.
  return callOperation<Deployment>(context, 'deployments.get', { id });
}

/** Ends a command on how its deployment ended: failed or stopped is an API error. */
function endOn(context: CommandContext, deployment: Deployment): void {
  if (deployment.status === 'running') {
    if (!context.isJson) {
      context.print(
        `${context.colors.green('✓')} Deployed ${deployment.app_name ?? 'the app'} ${deployment.version} (${context.colors.cyan(deployment.id)}).`,
      );
    }
    return;
  }
  throw new CliError(
    `The deployment ${deployment.id} ${deployment.status}: ${deployment.status_reason ?? 'no reason given'}`,
    EXIT_CODES.api,
  );
}

/**
 * Follows an invocation to its end, its code's console on stderr (with --json, each event a line
 * on stdout); the invocation it ended as. Ctrl-C cancels it (its code stops, its browsers end).
 */
export async function followInvocation(context: CommandContext, id: string): Promise<Invocation> {
  const stream = await callOperation<EventStream<InvocationEvent>>(context, 'invocations.events', {
    id,
  });
  // Ctrl-C: the invocation is told to stop; the command ends either way.
  const cancel = () =>
    void callOperation(context, 'invocations.update', { id, status: 'failed' }).catch(
      () => undefined,
    );
  context.signal.addEventListener('abort', cancel, { once: true });
  try {
    await follow(context, stream, (event) => {
      if (event.event === 'log') context.io.stderr.write(`${event.message}\n`);
      else if (event.event === 'error') {
        context.io.stderr.write(`${context.errorColors.red('!')} ${event.error.message}\n`);
      }
    });
  } finally {
    context.signal.removeEventListener('abort', cancel);
  }
  return callOperation<Invocation>(context, 'invocations.get', { id });
}

/** Prints how an invocation ended: its output on stdout; a failure is an API error. */
function endInvocation(context: CommandContext, invocation: Invocation): void {
  if (invocation.status === 'succeeded') {
    if (context.isJson) context.printJson(invocation);
    else if (invocation.output !== undefined) context.print(invocation.output);
    return;
  }
  if (context.isJson) context.printJson(invocation);
  throw new CliError(
    `The invocation ${invocation.id} ${invocation.status}: ${invocation.status_reason ?? 'no reason given'}`,
    EXIT_CODES.api,
  );
}

/** How often `xb logs app` looks for new invocations of the app, in ms. */
const APP_LOG_POLL_MS = 1_000;

/**
 * Prints the console of every invocation of an app as it runs, each line after its
 * invocation's id, until Ctrl-C: those running when it starts, then each new one (looked for
 * every second, each replayed from its start), followed until it ends.
 */
async function followApp(context: CommandContext, app: string, version?: string): Promise<void> {
  const followed = new Set<string>();
  const streams = new Set<Promise<void>>();
  const { colors } = context;
  const followOne = async (invocation: Invocation) => {
    const stream = await callOperation<EventStream<InvocationEvent>>(
      context,
      'invocations.events',
      {
        id: invocation.id,
      },
    );
    const stop = () => void stream.close();
    context.signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const event of stream) {
        if (context.isJson) context.printJson({ invocation_id: invocation.id, ...event });
        else if (event.event === 'log')
          context.print(`${colors.cyan(invocation.id)} ${event.message}`);
        else if (event.event === 'invocation_state' && event.invocation.finished_at) {
          context.print(
            `${colors.cyan(invocation.id)} ${colors.dim(`— ${event.invocation.status}`)}`,
          );
        }
      }
    } finally {
      context.signal.removeEventListener('abort', stop);
    }
  };
  // The list is oldest first: what is new since the last look is past what was seen.
  const pageFrom = (offset: number) =>
    callOperation<{ items: Invocation[] }>(context, 'invocations.list', {
      app_name: app,
      offset,
      limit: 100,
    });
  // What ran before the follow began and still runs is followed too.
  const running: Invocation[] = [];
  let seen = 0;
  for (let page = await pageFrom(0); page.items.length > 0; page = await pageFrom(seen)) {
    running.push(...page.items.filter((invocation) => !invocation.finished_at));
    seen += page.items.length;
  }
  const start = (invocation: Invocation) => {
    if (followed.has(invocation.id)) return;
    if (version !== undefined && invocation.version !== version) return;
    followed.add(invocation.id);
    const work = followOne(invocation)
      // One invocation's stream that fails (it was deleted, say) leaves the others followed; a
      // lost connection ends the follow through the next page asked for.
      .catch(() => undefined)
      .finally(() => streams.delete(work));
    streams.add(work);
  };
  for (const invocation of running) await start(invocation);
  while (!context.signal.aborted) {
    const page = await pageFrom(seen);
    seen += page.items.length;
    for (const invocation of page.items) start(invocation);
    // The pause ends early at Ctrl-C: the loop then stops and the abort is thrown below.
    if (page.items.length < 100) await pause(context, APP_LOG_POLL_MS).catch(() => undefined);
  }
  await Promise.allSettled([...streams]);
  context.signal.throwIfAborted();
}

/** `xb deploy <dir>`, `xb deployments …`, `xb apps`, `xb invoke` and `xb logs app`. */
export const deployCommands: CommandSpec[] = [
  {
    group: 'deploy',
    // The group is the command: `xb deploy ./my-agent`.
    name: '',
    summary:
      "Deploy an app's folder: zipped (honouring .gitignore), installed and loaded by the service, followed to its end.",
    operation: 'deployments.create',
    args: [{ name: '<dir>' }],
    flags: [
      {
        name: 'entrypoint',
        kind: 'string',
        placeholder: '<path>',
        description:
          "the file to load, relative to the folder (default: package.json's main, else the first of index.ts, app.ts, main.ts, index.mts, app.mts, index.js, app.js, index.mjs, app.mjs)",
      },
      {
        name: 'version',
        kind: 'string',
        placeholder: '<version>',
        description: "the apps' version (default latest)",
      },
      { name: 'force', kind: 'boolean', description: 'replace a version deployed already' },
      {
        name: 'with-node-modules',
        kind: 'boolean',
        description:
          'send node_modules as it is (packages no registry has; without a package.json nothing is installed over it)',
      },
      {
        name: 'env',
        kind: 'json',
        placeholder: '<json>',
        description:
          'environment variables as a JSON object, sealed by the service: \'{"API_KEY":"…"}\'',
      },
      {
        name: 'env-file',
        kind: 'string',
        placeholder: '<path>',
        description: 'environment variables from a dotenv file (NAME=value lines)',
      },
      {
        name: 'detach',
        kind: 'boolean',
        description: 'print the queued deployment and return, without following it',
      },
    ],
    example: 'xb deploy ./my-agent --version v2 --env-file .env.production',
    async run(context) {
      const archive = await appArchive(
        context.io.cwd,
        context.args['<dir>'] as string,
        context.flags.entrypoint as string | undefined,
        context.flags['with-node-modules'] === true,
      );
      const env = await envOf(context);
      const version = context.flags.version as string | undefined;
      if (!context.isJson) {
        context.io.stderr.write(
          `${context.errorColors.dim('…')} ${archive.fileCount} files, ${archive.size} bytes zipped; entrypoint ${archive.entrypoint}\n`,
        );
      }
      const bar = createProgressBar(context.io.stderr, context.showsProgress);
      const queued = await callOperation<Deployment>(
        context,
        'deployments.create',
        {
          file: archive.file,
          entrypoint_rel_path: archive.entrypoint,
          ...(version === undefined ? {} : { version }),
          ...(context.flags.force === true ? { force: 'true' } : {}),
          ...(Object.keys(env).length > 0 ? { env_vars: env } : {}),
        },
        {
          onUploadProgress: (progress: UploadProgress) =>
            bar.update(progress.transferredBytes, archive.size),
        },
      );
      bar.finish();
      if (context.flags.detach === true) {
        printResult(context, queued, (shown, deployment) =>
          deploymentView(shown.colors, deployment),
        );
        return;
      }
      if (context.isJson) context.printJson(queued);
      endOn(context, await followDeployment(context, queued.id));
    },
  },
  operationCommand<Deployment[]>('deployments', 'list', 'deployments.list', {
    example: 'xb deployments list --app-name shop-agent',
    show: listShow(deploymentTable, 'No deployments.'),
  }),
  operationCommand<Deployment>('deployments', 'get', 'deployments.get', {
    args: [DEPLOYMENT],
    example: 'xb deployments get dep_x7Hq2K9mN4pL',
    show: (context, deployment) => deploymentView(context.colors, deployment),
  }),
  operationCommand<Deployment>('deployments', 'follow', 'deployments.events', {
    summary: "Follow a deployment: its install's log and states, until it ends.",
    args: [DEPLOYMENT],
    example: 'xb deployments follow dep_x7Hq2K9mN4pL',
    show: (context, deployment) => deploymentView(context.colors, deployment),
    run: async (context) => {
      endOn(context, await followDeployment(context, context.input.id as string));
    },
  }),
  operationCommand<undefined>('deployments', 'delete', 'deployments.delete', {
    summary: 'Stop a deployment: its apps can no longer be invoked, its code is removed.',
    args: [DEPLOYMENT],
    example: 'xb deployments delete dep_x7Hq2K9mN4pL',
    show: (context) => `${context.colors.green('✓')} Stopped the deployment.`,
  }),
  {
    group: 'invoke',
    // The group is the command: `xb invoke shop-agent checkout`.
    name: '',
    summary:
      "Invoke an app's action and print its output: waits up to 100 s, or with --async follows its console until it ends.",
    operation: 'invocations.create',
    args: [{ name: '<app>' }, { name: '<action>' }],
    flags: [
      {
        name: 'payload',
        kind: 'string',
        placeholder: '<json>',
        description: "the action's input, JSON text",
      },
      {
        name: 'version',
        kind: 'string',
        placeholder: '<version>',
        description: "the app's version (default latest)",
      },
      {
        name: 'async',
        kind: 'boolean',
        description:
          'run in the background and follow its console until it ends (Ctrl-C cancels it)',
      },
      {
        name: 'async-timeout-seconds',
        kind: 'number',
        placeholder: '<s>',
        description: 'with --async, how long it may run, 10–3600 (default 900)',
      },
    ],
    example: 'xb invoke shop-agent checkout --payload \'{"cart":42}\' --async',
    async run(context) {
      const payload = context.flags.payload as string | undefined;
      if (payload !== undefined) {
        try {
          JSON.parse(payload);
        } catch {
          throw usageError('--payload must be JSON text: --payload \'{"cart":42}\'.');
        }
      }
      const isAsync = context.flags.async === true;
      const timeout = context.flags['async-timeout-seconds'] as number | undefined;
      const { value } = await callOperation<{ value: Invocation }>(context, 'invocations.create', {
        app_name: context.args['<app>'],
        action_name: context.args['<action>'],
        ...(context.flags.version === undefined ? {} : { version: context.flags.version }),
        ...(payload === undefined ? {} : { payload }),
        ...(isAsync ? { async: true } : {}),
        ...(timeout === undefined ? {} : { async_timeout_seconds: timeout }),
      });
      if (!isAsync) {
        endInvocation(context, value);
        return;
      }
      if (!context.isJson) {
        context.io.stderr.write(
          `${context.errorColors.dim('…')} queued ${context.errorColors.cyan(value.id)}\n`,
        );
      }
      endInvocation(context, await followInvocation(context, value.id));
    },
  },
  operationCommand<Invocation>('invocations', 'follow', 'invocations.events', {
    summary: "Follow an invocation: its code's console until it ends, then its output.",
    args: [{ name: '<id>', field: 'id' }],
    example: 'xb invocations follow inv_4HkP0qL2',
    show: () => '',
    run: async (context) => {
      endInvocation(context, await followInvocation(context, context.input.id as string));
    },
  }),
  {
    group: 'logs',
    name: 'app',
    summary:
      "Follow an app's invocations: each line of their console after its invocation's id, until Ctrl-C.",
    args: [{ name: '<app>' }],
    flags: [
      {
        name: 'version',
        kind: 'string',
        placeholder: '<version>',
        description: 'only invocations of this version',
      },
    ],
    example: 'xb logs app shop-agent --version v2',
    async run(context) {
      await followApp(
        context,
        context.args['<app>'] as string,
        context.flags.version as string | undefined,
      );
    },
  },
  operationCommand<AppVersion[]>('apps', '', 'apps.list', {
    summary: 'List the app versions that can be invoked, with their actions.',
    example: 'xb apps --app-name shop-agent',
    show: listShow(appTable, 'No apps deployed.'),
  }),
];

/** `xb deploy`, `xb deployments`, `xb apps` and `xb invoke`: the groups and their commands. */
export const deploySet: CommandSet = {
  groups: [
    {
      name: 'deploy',
      summary: "Deploy an app's folder: zipped, installed and loaded by the service, followed",
    },
    { name: 'deployments', summary: 'List, inspect, follow and stop deployments' },
    { name: 'apps', summary: 'List the app versions that can be invoked, with their actions' },
    { name: 'invoke', summary: "Invoke an app's action and print its output (--async: follow it)" },
  ],
  commands: deployCommands,
};
