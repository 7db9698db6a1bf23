import type { ContractCheck } from './check.js';
import { authChecks } from './checks-auth.js';
import { browserChecks } from './checks-browsers.js';
import { commonChecks } from './checks-common.js';
import { computerChecks } from './checks-computer.js';
import { credentialChecks, credentialProviderChecks } from './checks-credentials.js';
import { curlChecks } from './checks-curl.js';
import { deploymentChecks } from './checks-deployments.js';
import { extensionChecks } from './checks-extensions.js';
import { fileChecks } from './checks-files.js';
import { invocationChecks } from './checks-invocations.js';
import { listChecks } from './checks-lists.js';
import { liveViewChecks } from './checks-live-view.js';
import { logChecks } from './checks-logs.js';
import { mcpChecks } from './checks-mcp.js';
import { orgChecks } from './checks-org.js';
import { playwrightChecks } from './checks-playwright.js';
import { poolChecks } from './checks-pools.js';
import { processChecks } from './checks-processes.js';
import { profileChecks } from './checks-profiles.js';
import { proxyChecks } from './checks-proxies.js';
import { ruleChecks } from './checks-rules.js';
import { telemetryChecks } from './checks-telemetry.js';
import { ContractContext, type ContractTarget } from './context.js';

export type { ContractCheck } from './check.js';
export { ContractContext, type ContractTarget, ContractViolation } from './context.js';

/** Every check of the contract suite, by area. */
export const contractChecks: readonly ContractCheck[] = [
  ...commonChecks,
  ...browserChecks,
  ...computerChecks,
  ...fileChecks,
  ...processChecks,
  ...playwrightChecks,
  ...logChecks,
  ...curlChecks,
  ...telemetryChecks,
  ...poolChecks,
  ...extensionChecks,
  ...invocationChecks,
  ...deploymentChecks,
  ...listChecks,
  ...liveViewChecks,
  ...profileChecks,
  ...proxyChecks,
  ...credentialChecks,
  ...credentialProviderChecks,
  ...authChecks,
  ...ruleChecks,
  ...orgChecks,
  ...mcpChecks,
];

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
