import type { Slots } from './slots.js';

/** The app engine: what runs deployments' code (its install, its discovery, its actions). */

/** An app and its actions as the engine found them in a deployment's code. */
export interface FoundApp {
  readonly name: string;
  readonly actions: readonly { readonly name: string }[];
}

/** A deploy the app engine is asked to run, on the archive it kept for the deployment. */
export interface DeployJob {
  readonly deploymentId: string;
  /** The file to load, relative to the archive's root. */
  readonly entrypoint: string;
  /** The deployment's environment variables, opened, for the code as it loads. */
  readonly env: Readonly<Record<string, string>>;
  /** A line of the install's or the code's output. */
  readonly onLog: (message: string) => void;
  /** Aborted when the deployment is deleted or the service shuts down. */
  readonly signal: AbortSignal;
}

/** How a deploy ended: the apps found, or why it failed (in words for the caller). */
export type DeployOutcome =
  | {
      readonly ok: true;
      readonly apps: readonly FoundApp[];
      /** The bytes its installed code takes on the node's disk, where the engine counts them. */
      readonly bytes?: number;
    }
  | { readonly ok: false; readonly reason: string };

/** An action the app engine is asked to run, in its deployment's installed code. */
export interface InvokeJob {
  readonly deploymentId: string;
  readonly invocationId: string;
  /** The deployment's entrypoint, relative to its folder. */
  readonly entrypoint: string;
  readonly app: string;
  readonly action: string;
  /** The caller's payload, JSON text (checked to parse). */
  readonly payload?: string | undefined;
  /** The deployment's environment variables, opened, its key among them. */
  readonly env: Readonly<Record<string, string>>;
  /** Past it the code is stopped and the run fails, saying so. */
  readonly timeoutMs: number;
  /** A line of the code's console. */
  readonly onLog: (message: string) => void;
  /** Aborted on a cancel: the code is stopped. */
  readonly signal: AbortSignal;
}

/** How a run ended: the action's result (JSON text, if it returned one), or why it failed. */
export type InvokeOutcome =
  | { readonly ok: true; readonly output?: string | undefined }
  | { readonly ok: false; readonly reason: string };

/**
 * What deployments' code is installed and run by: the server in sandboxes, the fake in its own
 * process.
 */
export interface AppEngine {
  /**
   * Keeps a deployment's archive for the deploy to come (the upload is freed once the call is
   * answered); gives its SHA-256 (lowercase hex).
   */
  keep(deploymentId: string, archive: Blob): Promise<{ readonly checksum: string }>;
  /** Checks and unpacks the kept archive, installs its dependencies, finds its apps. */
  deploy(job: DeployJob): Promise<DeployOutcome>;
  /** Removes whatever the deployment has on this node (its archive, its installed code). */
  remove(deploymentId: string): Promise<void>;
  /** Runs one action of a running deployment's code. */
  invoke(job: InvokeJob): Promise<InvokeOutcome>;
  /**
   * The invocations whose code runs on this node now, each with its project (the operator's cap
   * counts them; projects share them fairly).
   */
  readonly active: Map<string, string>;
  /** The places installs take in turn on this node (queued deploys wait for one). */
  readonly deploySlots: Slots;
}
