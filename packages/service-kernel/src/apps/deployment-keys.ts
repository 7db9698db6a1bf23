/** The API keys deployed code calls the API with: minted per run, given in its variables. */

/** Mints and retires the API keys deployments' code calls the API with (the organization). */
export interface DeploymentKeys {
  /**
   * A key for one run of a deployment's code (`purpose` names it): of the deployment's project,
   * expiring at `expiresAt`, working only while the deployer's key does.
   */
  mint(
    purpose: string,
    deployer: Deployer | undefined,
    expiresAt: Date,
  ): Promise<{ readonly id: string; readonly key: string }>;
  retire(id: string): Promise<void>;
}

/** Who deployed: the caller's key id, and its API key's id when an API key deployed. */
export interface Deployer {
  readonly keyId: string;
  readonly parentKey?: string | undefined;
}

/** Longest a deploy's key lasts (it is retired as the deploy ends, sooner). */
export const DEPLOY_KEY_LIFETIME_MS = 2 * 60 * 60_000;

/** How long an invocation's key outlives the invocation's own time-out. */
export const INVOCATION_KEY_GRACE_MS = 60_000;

/** The variables that give deployed code its key. */
export function keyVariables(key: string): Record<string, string> {
  return Object.fromEntries(KEY_VARIABLES.map((name) => [name, key] as const));
}

/**
 * Variables the service gives deployed code itself: the key minted for the deployment, under the
 * names the public Kernel SDK and `@x/client` read. A deployment's own variable of the same name
 * is overridden. (The API's address, KERNEL_BASE_URL and XB_BASE_URL, is the engine's to give.)
 */
export const KEY_VARIABLES = ['KERNEL_API_KEY', 'XB_TOKEN'] as const;
