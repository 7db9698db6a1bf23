/**
 * The program that runs a deployment's code, in a sandbox of its own per call. It is
 * self-contained (Node's own modules only, nothing of the server): the deployment brings its
 * packages in its own node_modules.
 *
 * - stdin takes one request, a JSON line: `{"mode": "discover", "entrypoint"}` or
 *   `{"mode": "invoke", "entrypoint", "app", "action", "invocationId", "payload"?}` (`payload`
 *   the caller's JSON text).
 * - fd 3 gets one answer, a JSON line: `{"apps": [{"name", "actions": [{"name"}]}]}` for a
 *   discovery; `{"output"?}` (the action's return value as JSON text) or `{"error": {"name",
 *   "message"}}` for an invocation; `{"error"}` too when the entrypoint cannot be loaded.
 * - stdout and stderr are the code's console: the server keeps them as the call's log.
 *
 * Apps are found in the registries of the frameworks the code may use: the public Kernel SDK's
 * (`kernel.app(name).action(name, handler)`, `@onkernel/sdk`, as the deployment installed it)
 * and `@x/client`'s (`defineApp`). The host exits once it has answered: whatever the code left
 * running ends with it.
 */

import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Largest output, in characters of JSON. */
const MAX_OUTPUT_CHARACTERS = 4 * 1024 * 1024;

/** The global registry `@x/client`'s `defineApp` keeps its apps in. */
const CLIENT_APPS = Symbol.for('@x/client.apps');

interface Request {
  readonly mode: 'discover' | 'invoke';
  readonly entrypoint: string;
  readonly app?: string;
  readonly action?: string;
  readonly invocationId?: string;
  readonly payload?: string;
}

/** An action as either framework keeps it. */
type Handler = (
  context: { invocation_id: string; signal: AbortSignal },
  payload?: unknown,
) => unknown;

/** Aborted when the run is asked to end (SIGTERM); the sandbox is removed soon after. */
const ending = new AbortController();
process.once('SIGTERM', () => ending.abort());

/** An app as either framework keeps it: its name and its actions by name. */
interface FoundApp {
  readonly name: string;
  readonly actions: ReadonlyMap<string, Handler>;
}

interface KernelRegistry {
  getApps(): { name: string; actions: Map<string, { handler: Handler }> }[];
}

const answers = createWriteStream('', { fd: 3 });

/** Waits until what was written to `stream` is out (a pipe's writes may still be queued). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    stream.write('', () => resolve());
  });
}

/** Set once the one answer is on its way: later failures of the code change nothing. */
let isAnswered = false;

async function answer(message: Record<string, unknown>): Promise<never> {
  if (isAnswered) return new Promise<never>(() => undefined);
  isAnswered = true;
  // The console first: every line the code wrote comes before the run is over.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  answers.end(`${JSON.stringify(message)}\n`);
  await once(answers, 'finish');
  process.exit(0);
}

function errorOf(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** The Kernel SDK's app registries (its ES module and CommonJS builds) the entrypoint reaches. */
async function kernelRegistries(entrypoint: string): Promise<KernelRegistry[]> {
  const registries: KernelRegistry[] = [];
  for (let folder = dirname(entrypoint); ; folder = dirname(folder)) {
    const core = join(folder, 'node_modules', '@onkernel', 'sdk', 'core');
    if (existsSync(join(core, 'app-framework.mjs'))) {
      const module = (await import(pathToFileURL(join(core, 'app-framework.mjs')).href)) as {
        appRegistry?: KernelRegistry;
      };
      if (module.appRegistry) registries.push(module.appRegistry);
    }
    if (existsSync(join(core, 'app-framework.js'))) {
      const module = createRequire(entrypoint)(join(core, 'app-framework.js')) as {
        appRegistry?: KernelRegistry;
      };
      if (module.appRegistry) registries.push(module.appRegistry);
    }
    if (registries.length > 0 || folder === dirname(folder)) return registries;
  }
}

/** Every app the loaded code defined, by name (the first definition of a name wins). */
async function appsOf(entrypoint: string): Promise<Map<string, FoundApp>> {
  const apps = new Map<string, FoundApp>();
  for (const registry of await kernelRegistries(entrypoint)) {
    for (const app of registry.getApps()) {
      if (apps.has(app.name)) continue;
      const actions = new Map<string, Handler>();
      for (const [name, action] of app.actions) actions.set(name, action.handler);
      apps.set(app.name, { name: app.name, actions });
    }
  }
  const defined = (globalThis as Record<symbol, unknown>)[CLIENT_APPS];
  if (defined instanceof Map) {
    for (const app of defined.values() as Iterable<FoundApp>) {
      if (!apps.has(app.name)) apps.set(app.name, app);
    }
  }
  return apps;
}

async function readRequest(): Promise<Request> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return JSON.parse(text) as Request;
}

async function invoke(apps: Map<string, FoundApp>, request: Request): Promise<never> {
  const handler = apps.get(request.app ?? '')?.actions.get(request.action ?? '');
  if (!handler) {
    return answer({
      error: {
        name: 'NotFound',
        message: `The code defines no action "${request.action}" of app "${request.app}".`,
      },
    });
  }
  let result: unknown;
  // The run lasts until the action answers, even one that waits on nothing but its signal (a
  // promise alone keeps no process alive): its time-out or a cancel ends it otherwise.
  setInterval(() => undefined, 60_000);
  try {
    const payload = request.payload === undefined ? undefined : JSON.parse(request.payload);
    result = await handler(
      { invocation_id: request.invocationId ?? '', signal: ending.signal },
      payload,
    );
  } catch (error) {
    return answer({ error: errorOf(error) });
  }
  let output: string | undefined;
  try {
    output = result === undefined ? undefined : JSON.stringify(result);
  } catch (error) {
    return answer({
      error: { name: 'TypeError', message: `The result is not JSON: ${errorOf(error).message}` },
    });
  }
  if (output !== undefined && output.length > MAX_OUTPUT_CHARACTERS) {
    return answer({
      error: {
        name: 'RangeError',
        message: `The result is larger than ${MAX_OUTPUT_CHARACTERS} characters of JSON.`,
      },
    });
  }
  return answer(output === undefined ? {} : { output });
}

async function main(): Promise<never> {
  const request = await readRequest();
  // What the code throws outside the action's own promise is its failure too.
  const fail = (error: unknown) => void answer({ error: errorOf(error) });
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  try {
    await import(pathToFileURL(request.entrypoint).href);
  } catch (error) {
    const { name, message } = errorOf(error);
    return answer({ error: { name, message: `The entrypoint cannot be loaded: ${message}` } });
  }
  const apps = await appsOf(request.entrypoint);
  if (request.mode === 'discover') {
    return answer({
      apps: [...apps.values()].map((app) => ({
        name: app.name,
        actions: [...app.actions.keys()].map((name) => ({ name })),
      })),
    });
  }
  return invoke(apps, request);
}

await main();
