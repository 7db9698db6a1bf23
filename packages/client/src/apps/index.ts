/**
 * Apps for the service's deployments, written with this client: `defineApp(name)` and
 * `.action(name, handler)`, the shape of the public Kernel app framework. A deployment's
 * entrypoint defines them when it is loaded; the service then finds them (a deploy lists them)
 * and runs one action per invocation, in a sandbox of its own, with `XB_TOKEN` and `XB_BASE_URL`
 * set for `createClient()` from `@x/client/node`.
 *
 * ```ts
 * import { defineApp } from '@x/client/apps';
 * import { createClient } from '@x/client/node';
 *
 * const client = createClient();
 * defineApp('shop').action('title', async (context, payload?: { url: string }) => {
 *   const session = await client.browsers.create({ invocation_id: context.invocation_id });
 *   // … drive session.cdp_ws_url with Playwright …
 *   return { session: session.session_id };
 * });
 * ```
 */

/** What an action is given besides its payload. */
export interface ActionContext {
  /** The invocation running it: browsers created with it end with the invocation. */
  readonly invocation_id: string;
  /**
   * Aborted when the run is asked to end (a cancel, its time-out); the service then stops the
   * code. Absent where the runtime gives none.
   */
  readonly signal?: AbortSignal;
}

/** An action: it gets the invocation's context and the caller's payload (parsed JSON). */
export type ActionHandler<Payload = unknown, Output = unknown> = (
  context: ActionContext,
  payload?: Payload,
) => Output | Promise<Output>;

/** An app of a deployment: a name and its actions. */
export interface App {
  readonly name: string;
  /** The actions defined so far, by name. */
  readonly actions: ReadonlyMap<string, ActionHandler>;
  /** Defines an action (a name defined twice is an error); returns the handler. */
  action<Payload = unknown, Output = unknown>(
    name: string,
    handler: ActionHandler<Payload, Output>,
  ): ActionHandler<Payload, Output>;
}

/**
 * Where the apps an entrypoint defines are kept for the service to find: one registry per
 * process, whichever copy of this package defined them.
 */
export const APPS_REGISTRY: unique symbol = Symbol.for('@x/client.apps') as never;

/** Longest app or action name, as the service takes them. */
const MAX_NAME_LENGTH = 255;

function registry(): Map<string, App> {
  const holder = globalThis as { [APPS_REGISTRY]?: Map<string, App> };
  holder[APPS_REGISTRY] ??= new Map();
  return holder[APPS_REGISTRY];
}

function checkName(kind: string, name: string): void {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME_LENGTH) {
    throw new TypeError(
      `An ${kind} name is 1 to ${MAX_NAME_LENGTH} characters, got ${JSON.stringify(name)}.`,
    );
  }
}

/** Defines an app of the deployment (a name defined twice is an error). */
export function defineApp(name: string): App {
  checkName('app', name);
  const apps = registry();
  if (apps.has(name)) throw new Error(`The app "${name}" is defined twice.`);
  const actions = new Map<string, ActionHandler>();
  const app: App = {
    name,
    actions,
    action(actionName, handler) {
      checkName('action', actionName);
      if (typeof handler !== 'function')
        throw new TypeError(`The action "${actionName}" of app "${name}" needs a function.`);
      if (actions.has(actionName))
        throw new Error(`The action "${actionName}" of app "${name}" is defined twice.`);
      actions.set(actionName, handler as ActionHandler);
      return handler;
    },
  };
  apps.set(name, app);
  return app;
}

/** The apps defined in this process so far, in the order they were defined. */
export function definedApps(): readonly App[] {
  return [...registry().values()];
}
