/** The command groups of `xb`, in help order, each in the API's words. */
export const GROUPS: readonly { readonly name: string; readonly summary: string }[] = [
  { name: 'browsers', summary: 'Create, list, inspect and delete browser sessions' },
  {
    name: 'computer',
    summary: 'Click, type, press keys, scroll, drag, use the clipboard and take screenshots',
  },
  { name: 'replays', summary: 'Record a browser’s screen and download the videos' },
  { name: 'process', summary: 'Run and watch processes on a browser’s instance' },
  { name: 'playwright', summary: 'Run Playwright code beside a browser, on its page' },
  { name: 'logs', summary: 'Follow a log file on a browser’s instance, or the session’s own log' },
  {
    name: 'telemetry',
    summary: 'Read and follow what a browser’s pages and clients did: console, network, calls',
  },
  { name: 'fs', summary: 'Read, write, list and watch files on a browser’s instance' },
  { name: 'pools', summary: 'Keep pools of warm browsers; acquire and release them' },
  { name: 'extensions', summary: 'Upload, list, download and delete browser extensions' },
  {
    name: 'invocations',
    summary: 'Invoke actions, follow and end invocations; list their browsers',
  },
  {
    name: 'deploy',
    summary: "Deploy an app's folder: zipped, installed and loaded by the service, followed",
  },
  { name: 'deployments', summary: 'List, inspect, follow and stop deployments' },
  { name: 'apps', summary: 'List the app versions that can be invoked, with their actions' },
  { name: 'invoke', summary: "Invoke an app's action and print its output (--async: follow it)" },
  { name: 'profiles', summary: 'Keep logins and site state from one browser session to the next' },
  { name: 'proxies', summary: 'Route browsers through your proxies; check them' },
  {
    name: 'credentials',
    summary: 'Keep logins sealed (values and TOTP secrets write-only); TOTP codes',
  },
  {
    name: 'auth',
    summary:
      'Keep profiles signed in to sites: sign in (asking here for what is missing), checks; who the token is',
  },
  {
    name: 'credential-providers',
    summary: 'Read logins from your 1Password vaults (1Password Connect); test, list items',
  },
  { name: 'projects', summary: 'Keep teams apart in projects; set their limits' },
  { name: 'keys', summary: 'Make, rotate and delete API keys, for every project or one' },
  { name: 'audit', summary: 'Read the audit log: every write, who made it and how it ended' },
  { name: 'nodes', summary: "See the service's nodes; drain one before a deploy stops it" },
  {
    name: 'mcp',
    summary: 'Serve the MCP tools over stdio, for agents (XB_BASE_URL and XB_TOKEN, or a profile)',
  },
  { name: 'config', summary: 'Save the base URL and token in named profiles' },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)' },
];
