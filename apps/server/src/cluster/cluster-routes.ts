import { type ClusterRoute, matchOperation } from '@x/types';

/**
 * How a cluster routes a call: by its operation's `clusterRoute` in the catalog (a new operation
 * states its own, or fails to compile), and a session's pages and sockets by their path.
 */
export type { ClusterRoute };

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
    const route = match.operation.clusterRoute;
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
