import type { NetworkEntry } from '@x/types';
import { runTool } from '../system/tool-runner.js';

/** What the sessions' networks are to the rest of the server, whichever way the host makes them. */

/**
 * How a sandbox joins its session's network: `nsenter`'s arguments (before `--`), and whether
 * they enter a user namespace of the server's own too (an unprivileged server's): the sandbox
 * then names its user, the server being root there.
 */
export interface NamespaceJoin {
  readonly nsenter: readonly string[];
  readonly isUserNamespace: boolean;
}

/**
 * Where the server serves a session (its proxy relay): the host address it listens at, the
 * address the session reaches it by, and the only address connections may come from (undefined:
 * the host's loopback, where the session's connections arrive as the server's own).
 */
export interface RelayPlace {
  readonly listen: string;
  readonly reachAt: string;
  readonly peer: string | undefined;
}

/** One session's network: the namespace its sandbox joins, and what the server runs for it. */
export interface SessionNetwork {
  /** How its sandboxes join it. */
  readonly join: NamespaceJoin;
  /** Its own address. */
  readonly address: string;
  /** Where the server serves it. */
  readonly relay: RelayPlace;
  /** The `resolv.conf` it sees, naming its resolver. */
  readonly resolvConf: string;
  /** Lets it reach a port the server listens on for it (its proxy relay). */
  openPort(port: number): Promise<void>;
  /** Ends it: its rules, relay, namespace and link go. Safe to call twice. */
  close(): Promise<void>;
}

/** What makes sessions' networks, as the host allows: a root server's, or an unprivileged one's. */
export interface EgressNetworks {
  /**
   * A session's network, reaching public destinations and `allow` (already checked against the
   * operator's list); `reachesHost` when the server will serve it on the host (a proxy relay).
   */
  create(
    sessionId: string,
    allow: readonly NetworkEntry[],
    options?: { readonly reachesHost?: boolean },
  ): Promise<SessionNetwork>;
  /** How many connections sessions tried that the policy refused, since the server started. */
  blockedTotal(): Promise<number>;
  /** Ends what is left (every session has ended). */
  close(): Promise<void>;
  /** Synchronously, for a server killed past its deadline. */
  killSync(): void;
}

/** Runs a command, feeding `input`; rejects with its stderr. */
export async function run(
  command: string,
  args: readonly string[],
  input?: string,
): Promise<string> {
  const { stdout } = await runTool(command, args, { input, timeoutMs: 10_000 });
  return stdout;
}
