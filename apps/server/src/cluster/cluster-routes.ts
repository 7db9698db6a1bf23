import { matchOperation, type OperationName } from '@x/types';

/**
 * Which node of a cluster answers an operation: a property of the operation, decided here once
 * for every operation of the catalog (a new operation fails to compile until it has one).
 * - `here`: the node the call arrives at: what it reads and writes is in the shared store, or is
 *   the organization's (a pool's acquire too: that node asks the pool's holder for a browser);
 * - `session`: the node that runs the browser its `id` names (an id, or a name looked up);
 * - `run`: the node that runs the deployment or invocation its `id` names;
 * - `pool`: the node that holds the pool its `id_or_name` names;
 * - `place`: the least loaded node with room (a new browser);
 * - `invoke`: the node that runs the deployment of the app its body names;
 * - `gather`: every node, their answers put together (a list of pools);
 * - `node`: the node its `id` names (a drain).
 */
export type ClusterRoute =
  | 'here'
  | 'session'
  | 'run'
  | 'pool'
  | 'place'
  | 'invoke'
  | 'gather'
  | 'node';

/** Every operation's route in a cluster (checked against the paths: `cluster-routes.test.ts`). */
export const CLUSTER_ROUTES: { readonly [N in OperationName]: ClusterRoute } = {
  'apiKeys.create': 'here',
  'apiKeys.delete': 'here',
  'apiKeys.get': 'here',
  'apiKeys.list': 'here',
  'apiKeys.rotate': 'here',
  'apiKeys.update': 'here',
  'apps.list': 'here',
  'auditLogs.list': 'here',
  'auth.connections.create': 'here',
  'auth.connections.delete': 'here',
  'auth.connections.events': 'here',
  'auth.connections.get': 'here',
  'auth.connections.list': 'here',
  'auth.connections.login': 'here',
  'auth.connections.submit': 'here',
  'auth.connections.timeline': 'here',
  'auth.connections.update': 'here',
  'auth.context.get': 'here',
  'browserPools.acquire': 'here',
  'browserPools.create': 'here',
  'browserPools.delete': 'pool',
  'browserPools.flush': 'pool',
  'browserPools.get': 'pool',
  'browserPools.list': 'gather',
  'browserPools.release': 'pool',
  'browserPools.update': 'pool',
  'browsers.computer.batch': 'session',
  'browsers.computer.clickMouse': 'session',
  'browsers.computer.dragMouse': 'session',
  'browsers.computer.getMousePosition': 'session',
  'browsers.computer.moveMouse': 'session',
  'browsers.computer.pressKey': 'session',
  'browsers.computer.readClipboard': 'session',
  'browsers.computer.screenshot': 'session',
  'browsers.computer.scroll': 'session',
  'browsers.computer.setCursorVisibility': 'session',
  'browsers.computer.type': 'session',
  'browsers.computer.writeClipboard': 'session',
  'browsers.create': 'place',
  'browsers.curl': 'session',
  'browsers.delete': 'session',
  'browsers.fs.createDirectory': 'session',
  'browsers.fs.deleteDirectory': 'session',
  'browsers.fs.deleteFile': 'session',
  'browsers.fs.downloadDirZip': 'session',
  'browsers.fs.fileInfo': 'session',
  'browsers.fs.listFiles': 'session',
  'browsers.fs.move': 'session',
  'browsers.fs.readFile': 'session',
  'browsers.fs.setFilePermissions': 'session',
  'browsers.fs.upload': 'session',
  'browsers.fs.uploadZip': 'session',
  'browsers.fs.watch.events': 'session',
  'browsers.fs.watch.start': 'session',
  'browsers.fs.watch.stop': 'session',
  'browsers.fs.writeFile': 'session',
  'browsers.get': 'session',
  'browsers.list': 'here',
  'browsers.liveView.create': 'session',
  'browsers.loadExtensions': 'session',
  'browsers.logs.stream': 'session',
  'browsers.playwright.execute': 'session',
  'browsers.process.exec': 'session',
  'browsers.process.kill': 'session',
  'browsers.process.output': 'session',
  'browsers.process.resize': 'session',
  'browsers.process.spawn': 'session',
  'browsers.process.status': 'session',
  'browsers.process.stdin': 'session',
  'browsers.replays.download': 'session',
  'browsers.replays.list': 'session',
  'browsers.replays.start': 'session',
  'browsers.replays.stop': 'session',
  'browsers.telemetry.events': 'session',
  'browsers.telemetry.stream': 'session',
  'browsers.update': 'session',
  'credentialProviders.create': 'here',
  'credentialProviders.delete': 'here',
  'credentialProviders.get': 'here',
  'credentialProviders.items': 'here',
  'credentialProviders.list': 'here',
  'credentialProviders.test': 'here',
  'credentialProviders.update': 'here',
  'credentials.create': 'here',
  'credentials.delete': 'here',
  'credentials.get': 'here',
  'credentials.list': 'here',
  'credentials.totpCode': 'here',
  'credentials.update': 'here',
  'deployments.create': 'here',
  'deployments.delete': 'run',
  'deployments.events': 'run',
  'deployments.get': 'run',
  'deployments.list': 'here',
  'extensions.delete': 'here',
  'extensions.download': 'here',
  'extensions.list': 'here',
  'extensions.metadata': 'here',
  'extensions.upload': 'here',
  'invocations.create': 'invoke',
  'invocations.deleteBrowsers': 'run',
  'invocations.events': 'run',
  'invocations.get': 'run',
  'invocations.list': 'here',
  'invocations.listBrowsers': 'run',
  'invocations.update': 'run',
  'nodes.drain': 'node',
  'nodes.list': 'here',
  'org.limits.get': 'here',
  'org.limits.update': 'here',
  'profiles.create': 'here',
  'profiles.delete': 'here',
  'profiles.download': 'here',
  'profiles.get': 'here',
  'profiles.list': 'here',
  'profiles.update': 'here',
  'projects.create': 'here',
  'projects.delete': 'here',
  'projects.get': 'here',
  'projects.limits.get': 'here',
  'projects.limits.update': 'here',
  'projects.list': 'here',
  'projects.update': 'here',
  'proxies.check': 'here',
  'proxies.create': 'here',
  'proxies.delete': 'here',
  'proxies.get': 'here',
  'proxies.list': 'here',
  'proxies.update': 'here',
};

/** The path parameter that names what a route follows. */
const KEY_PARAM: Partial<Record<ClusterRoute, string>> = {
  session: 'id',
  run: 'id',
  pool: 'id_or_name',
  node: 'id',
};

/** Longest id or name a route follows (longer ones name nothing: the node answers itself). */
const MAX_KEY_CHARS = 256;

/**
 * What is not an operation but follows its session all the same: the pages and sockets under
 * `/browsers/{id}/` the service hands out (the live view and its socket, DevTools, WebDriver BiDi,
 * a replay's page), and any other method or path there (its owner answers 404 or 405 as it would).
 */
const SESSION_URL_PATH = /^\/browsers\/([^/?]{1,256})(?:\/|$)/;

/** How a cluster routes a call: its route, and the id or name it follows (when it follows one). */
export interface RoutedCall {
  readonly route: ClusterRoute;
  readonly key?: string;
  /**
   * The pool the call's operation names, whatever its route (an acquire's too): a pool on its
   * way from a lost node is refused for a moment wherever it is asked for.
   */
  readonly pool?: string;
}

/** The route of a call by its method and path: by its operation of the catalog. */
export function clusterRouteOf(method: string, pathname: string): RoutedCall {
  const match = matchOperation(method, pathname);
  if (match) {
    const route = CLUSTER_ROUTES[match.operation.name];
    const pool = match.operation.path.startsWith('/browser_pools/{id_or_name}')
      ? match.params.id_or_name
      : undefined;
    const named = pool !== undefined && pool.length <= MAX_KEY_CHARS ? { pool } : {};
    const param = KEY_PARAM[route];
    if (param === undefined) return { route, ...named };
    const key = match.params[param];
    if (key === undefined || key.length > MAX_KEY_CHARS) return { route: 'here' };
    return { route, key, ...named };
  }
  const session = SESSION_URL_PATH.exec(pathname)?.[1];
  if (session === undefined) return { route: 'here' };
  try {
    return { route: 'session', key: decodeURIComponent(session) };
  } catch {
    return { route: 'here' };
  }
}
