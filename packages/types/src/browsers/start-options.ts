import { check, type InferOutput, pipe, record, string, unknown, url } from 'valibot';

/** Longest `start_url`, in characters. */
export const MAX_START_URL_LENGTH = 2048;

/** The page a browser opens when it is created: an http or https URL. */
export const StartUrlSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string(),
  /* @__PURE__ */ url('must be an absolute URL'),
  /* @__PURE__ */ check(
    (text) => text.length <= MAX_START_URL_LENGTH,
    `must be at most ${MAX_START_URL_LENGTH} characters`,
  ),
  /* @__PURE__ */ check((text) => /^https?:\/\//i.test(text), 'must be an http or https URL'),
);

/**
 * Chrome enterprise policies the service sets or depends on itself, which a browser may not set:
 * how extensions load, the proxy, DevTools and remote debugging (every client's way in),
 * headless mode, and where the profile, cache and downloads live.
 */
export const SERVICE_CHROME_POLICIES: readonly string[] = [
  'BlockExternalExtensions',
  'DeveloperToolsAvailability',
  'DeveloperToolsDisabled',
  'DiskCacheDir',
  'DownloadDirectory',
  'ExtensionAllowedTypes',
  'ExtensionInstallAllowlist',
  'ExtensionInstallBlacklist',
  'ExtensionInstallBlocklist',
  'ExtensionInstallForcelist',
  'ExtensionInstallSources',
  'ExtensionInstallWhitelist',
  'ExtensionSettings',
  'HeadlessMode',
  'PromptForDownloadLocation',
  'ProxyBypassList',
  'ProxyMode',
  'ProxyPacUrl',
  'ProxyServer',
  'ProxyServerMode',
  'ProxySettings',
  'RemoteDebuggingAllowed',
  'UserDataDir',
];

/** Most policies one browser may set. */
export const MAX_CHROME_POLICIES = 100;

/** Largest `chrome_policy`, as JSON, in bytes. */
export const MAX_CHROME_POLICY_BYTES = 256 * 1024;

const POLICY_NAME = /^[A-Z][A-Za-z0-9]{0,99}$/;

/**
 * Chrome enterprise policies for one browser, by policy name (https://chromeenterprise.google/policies/),
 * each value as Chrome takes it; applied as the browser's managed policies when it starts.
 */
export const ChromePolicySchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ record(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string(),
      /* @__PURE__ */ check(
        (name) => POLICY_NAME.test(name),
        'must be a Chrome policy name (a capital letter, then letters and digits)',
      ),
      /* @__PURE__ */ check(
        (name) => !SERVICE_CHROME_POLICIES.includes(name),
        'is a policy the service sets itself (extensions, proxy, DevTools, headless mode, its folders)',
      ),
    ),
    /* @__PURE__ */ unknown(),
  ),
  /* @__PURE__ */ check(
    (policies) => Object.keys(policies).length <= MAX_CHROME_POLICIES,
    `must set at most ${MAX_CHROME_POLICIES} policies`,
  ),
  /* @__PURE__ */ check(
    (policies) =>
      new TextEncoder().encode(JSON.stringify(policies)).length <= MAX_CHROME_POLICY_BYTES,
    `must be at most ${MAX_CHROME_POLICY_BYTES / 1024} KiB as JSON`,
  ),
);

/** A browser's Chrome policies, as its record echoes them. */
export type ChromePolicy = InferOutput<typeof ChromePolicySchema>;
