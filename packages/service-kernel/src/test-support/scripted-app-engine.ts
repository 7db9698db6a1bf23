import type { AppEngine, DeployJob, DeployOutcome } from '../engines.js';

/**
 * An app engine that does what the test says: each deploy logs a line, waits for `release` (when
 * the test holds it) and answers `outcome`; what it kept and removed is recorded.
 */
export class ScriptedAppEngine implements AppEngine {
  outcome: DeployOutcome = { ok: true, apps: [{ name: 'demo', actions: [{ name: 'run' }] }] };
  readonly kept = new Set<string>();
  readonly removed: string[] = [];
  readonly jobs: DeployJob[] = [];
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

  async remove(deploymentId: string): Promise<void> {
    this.kept.delete(deploymentId);
    this.removed.push(deploymentId);
  }
}
