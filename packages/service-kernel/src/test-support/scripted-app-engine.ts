import type {
  AppEngine,
  DeployJob,
  DeployOutcome,
  InvokeJob,
  InvokeOutcome,
} from '../apps/app-engine.js';
import { DEPLOYS_AT_ONCE } from '../apps/deployment-model.js';
import { Slots } from '../apps/slots.js';

/**
 * An app engine that does what the test says: each deploy or invocation logs a line, waits for
 * `release` (when the test holds it) and answers `outcome` or `answer`; what it kept, removed and
 * ran is recorded.
 */
export class ScriptedAppEngine implements AppEngine {
  outcome: DeployOutcome = { ok: true, apps: [{ name: 'demo', actions: [{ name: 'run' }] }] };
  readonly kept = new Set<string>();
  readonly removed: string[] = [];
  readonly jobs: DeployJob[] = [];
  /** What each invocation answers: its payload echoed as the output by default. */
  answer: (job: InvokeJob) => InvokeOutcome = (job) => ({ ok: true, output: job.payload });
  readonly runs: InvokeJob[] = [];
  readonly active = new Map<string, string>();
  readonly deploySlots = new Slots(DEPLOYS_AT_ONCE);
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;

  /** Deploys wait from now until `release()`. */
  hold(): void {
    this.#held = new Promise((resolve) => {
      this.#release = resolve;
    });
  }

  release(): void {
    this.#release?.();
    this.#held = undefined;
  }

  async keep(deploymentId: string, archive: Blob): Promise<{ checksum: string }> {
    this.kept.add(deploymentId);
    return { checksum: `${archive.size}`.padStart(64, '0') };
  }

  async deploy(job: DeployJob): Promise<DeployOutcome> {
    this.jobs.push(job);
    job.onLog(`installing ${job.entrypoint}`);
    if (this.#held) {
      await Promise.race([
        this.#held,
        new Promise((resolve) => job.signal.addEventListener('abort', resolve, { once: true })),
      ]);
    }
    return this.outcome;
  }

  async invoke(job: InvokeJob): Promise<InvokeOutcome> {
    this.runs.push(job);
    job.onLog(`running ${job.app}.${job.action}`);
    if (this.#held) {
      await Promise.race([
        this.#held,
        new Promise((resolve) => job.signal.addEventListener('abort', resolve, { once: true })),
      ]);
    }
    if (job.signal.aborted) return { ok: false, reason: 'stopped' };
    return this.answer(job);
  }

  async remove(deploymentId: string): Promise<void> {
    this.kept.delete(deploymentId);
    this.removed.push(deploymentId);
  }
}
