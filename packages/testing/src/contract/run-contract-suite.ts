import type { ContractCheck } from './check.js';
import { ContractContext, type ContractTarget } from './context.js';
import { contractChecks } from './every-check.js';

export type { ContractCheck } from './check.js';
export { ContractContext, type ContractTarget, ContractViolation } from './context.js';
export { contractChecks };

/** The outcome of one check. */
export interface ContractResult {
  readonly area: string;
  readonly name: string;
  readonly passed: boolean;
  /** Why it failed. */
  readonly error?: string;
  readonly durationMs: number;
}

/** Runs one check against a target, cleaning up what it made; throws what it found wrong. */
export async function runContractCheck(
  check: ContractCheck,
  target: ContractTarget,
): Promise<void> {
  const context = new ContractContext(target);
  try {
    await check.run(context);
  } finally {
    await context.cleanUp();
  }
}

/**
 * Runs the contract suite against any implementation of the API, one check after another, and
 * reports each. `filter` picks checks (by area or name). Framework-free; `@x/testing/vitest`
 * turns the same checks into tests.
 *
 * @example
 * const report = await runContractSuite({ baseUrl, token, readOnlyToken });
 * if (report.failed > 0) console.log(report.results.filter((result) => !result.passed));
 */
export async function runContractSuite(
  target: ContractTarget,
  options: { filter?: (check: ContractCheck) => boolean } = {},
): Promise<{ passed: number; failed: number; results: ContractResult[] }> {
  const results: ContractResult[] = [];
  for (const check of contractChecks.filter(options.filter ?? (() => true))) {
    const started = performance.now();
    try {
      await runContractCheck(check, target);
      results.push({
        area: check.area,
        name: check.name,
        passed: true,
        durationMs: performance.now() - started,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({
        area: check.area,
        name: check.name,
        passed: false,
        error: message,
        durationMs: performance.now() - started,
      });
    }
  }
  const passed = results.filter((result) => result.passed).length;
  return { passed, failed: results.length - passed, results };
}
