import type { BrowserEndReason, BrowserSession } from '@x/types';
import type { BrowserSpec } from './browsers/browser-spec.js';
import type { OperatorNetworks } from './browsers/network-allow.js';
import type { BrowserInstance } from './engines.js';
import type { IdGenerator } from './ids.js';
import type { ServiceEngines } from './service-engines.js';

/** What one browser may hold at once: every resource a caller can grow has a bound. */
export interface BrowserLimits {
  /** Processes running at once on one browser; one more is 409. */
  readonly processes: number;
  /** Watches at once on one browser; one more is 409. */
  readonly watches: number;
  /** Bytes of output kept per process: the newest; older output is dropped and counted. */
  readonly processOutputBytes: number;
  /** Ended processes kept per browser (status, output); older ones are forgotten (404). */
  readonly endedProcesses: number;
  /** File operations at once on one browser (streamed reads included); one more is 429. */
  readonly fileOperations: number;
  /** Log and telemetry streams open at once on one browser; one more is 429. */
  readonly logStreams: number;
}

/** The limits a service has unless it is told otherwise. */
export const DEFAULT_BROWSER_LIMITS: BrowserLimits = {
  processes: 32,
  watches: 16,
  processOutputBytes: 256 * 1024,
  endedProcesses: 16,
  fileOperations: 8,
  logStreams: 16,
};

/** How one implementation runs the model. */
export interface ModelSettings {
  /** Most live browsers at once; one more is 429 with Retry-After. */
  readonly maxBrowsers: number;
  /** Whether process operations run (otherwise 403, as an operator may decide). */
  readonly isProcessExecutionEnabled: boolean;
  /** Events a watch holds for a slow reader before it counts them as lost. */
  readonly watchBufferSize: number;
  /** What one browser may hold at once (DEFAULT_BROWSER_LIMITS unless told otherwise). */
  readonly limits: BrowserLimits;
  /** Signs the session URLs' jwts. */
  readonly jwtSecret: string;
  /**
   * Whether pools start browsers at their `fill_rate_per_minute` (the server) or all at once
   * (the fake, whose browsers cost nothing and whose tests want full pools at once).
   */
  readonly isFillRateLimited: boolean;
  /**
   * What the operator opens to every session beyond the public internet: a browser's
   * `network.allow` must stay within it. Undefined: anything (a service with no egress policy,
   * such as the fake).
   */
  readonly allowNetworks?: OperatorNetworks | undefined;
  /** Most invocations whose code runs at once on this node; one more is 429. */
  readonly maxInvocations?: number | undefined;
  /**
   * Whether this node holds what an id names (a node of a cluster: what it made, see
   * `nodeTagOf`, or a pool moved here from a node lost or gone). What it does not hold it leaves
   * alone when it starts: another node runs it, or a lost node's is ended by the cluster.
   * Undefined: everything (one server alone).
   */
  readonly owns?: ((id: string) => boolean) | undefined;
  /**
   * Whether the running browsers of other nodes are listed: `GET /browsers` then reads the
   * open records of the store, where every node keeps its own (a cluster).
   */
  readonly isShared?: boolean | undefined;
  /**
   * The other nodes of a cluster, as a pool uses them: its browsers start on whichever node has
   * room, and the node that holds the pool hands them out. Undefined: a pool's browsers run
   * where the pool is (one server alone).
   */
  readonly poolPeers?: PoolPeers | undefined;
}

/**
 * How the node that holds a pool reaches its browsers on other nodes. Each call is one of that
 * project's (`project`); a browser's node is read from its id.
 */
export interface PoolPeers {
  /** This node's tag. */
  readonly self: string;
  /**
   * The node a pool's next browser is to start on: of those with room, the one that holds the
   * fewest of its browsers (`share` counts them). Undefined when no node has room.
   */
  where(share: (node: string) => number): string | undefined;
  /** Whether any node has room for one more browser, as last read. */
  hasRoom(): boolean;
  /** The node that runs browser `sessionId`. */
  nodeOf(sessionId: string): string;
  /**
   * Starts a browser for a pool on node `node`, warm (no idle time-out until it is handed out):
   * its record. With `lend`, that node may hand it out itself to an acquire it receives, and tell
   * the pool after (`taken`). Rejects with a `rate_limited` ServiceError when that node is full,
   * `unavailable` when it does not answer.
   */
  start(
    node: string,
    project: string,
    spec: BrowserSpec,
    origin: string,
    lend: boolean,
  ): Promise<BrowserSession>;
  /**
   * Hands out a warm browser of another node (its idle time-out runs from now): its record;
   * undefined when it is warm no more (its node handed it out itself).
   */
  lease(project: string, sessionId: string): Promise<BrowserSession | undefined>;
  /**
   * Acquires a browser of a pool another node holds (`holder`), for a call this node received:
   * the holder hands out a warm one, one that runs here first, waiting up to `timeoutSeconds`
   * (the pool's line is the holder's, first come first served across the nodes). One that runs
   * here comes back as its id, still warm: this node hands it out itself, with no call back;
   * one of another node with its record, handed out there. Undefined when none came free.
   * `gone`: a browser of this node the holder handed back before, which had ended here (its
   * end may not have reached the holder): the holder lets it go. Rejects with the holder's
   * refusal (`not_found`), or `unavailable` when it does not answer.
   */
  acquire(
    holder: string,
    project: string,
    idOrName: string,
    timeoutSeconds: number,
    signal: AbortSignal,
    gone?: string,
  ): Promise<string | BrowserSession | undefined>;
  /**
   * Ends a browser of another node (released, or its pool changed); done when it is not there.
   * With `ifWarm`, only while it is warm: false when its node had handed it out itself.
   */
  end(
    project: string,
    sessionId: string,
    reason: BrowserEndReason,
    ifWarm?: boolean,
  ): Promise<boolean>;
  /** A browser started here for a pool another node holds ended: that node is told. */
  ended(project: string, record: BrowserSession): void;
  /** A browser lent to this node (`start`) was handed out here: the pool's node is told. */
  taken(project: string, poolId: string, sessionId: string): void;
  /** Whether a browser of another node is warm, when it still runs there (a pool moved here). */
  warmth(project: string, sessionId: string): Promise<boolean | undefined>;
}

/** Where the model reports what happens in the background, pino-style. */
export interface ModelLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * What a project may hold, as the organization keeps it: read at once, so a check and the start
 * it allows happen in the same turn (two creates at once cannot both take the last place).
 */
export interface ProjectQuota {
  /** Browsers running or starting on this node, every project's together. */
  nodeBrowsers(): number;
  /** The project's cap on browsers at once, pools' sizes included; undefined: none. */
  sessions(): number | undefined;
  /** The project's cap on running invocations; undefined: none. */
  invocations(): number | undefined;
  /**
   * How many projects this node serves (has a model of): past one, a project leaves some of the
   * node's shared places for the others. Undefined: one.
   */
  projectsHere?(): number;
}

/** What every part of the model works with. */
export interface ModelContext<I extends BrowserInstance> {
  /** The project this model serves (every record it keeps is in that project's scope). */
  readonly project: string;
  readonly quota: ProjectQuota;
  readonly engines: ServiceEngines<I>;
  readonly settings: ModelSettings;
  /** The time: records' timestamps and idle time-outs follow it. */
  readonly clock: () => Date;
  readonly nextId: IdGenerator;
  readonly log: ModelLog;
}

/** A log that drops everything. */
export const silentLog: ModelLog = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
