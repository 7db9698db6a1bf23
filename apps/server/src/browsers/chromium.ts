import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { type Dirent, existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, posix } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { INSTANCE_HOME } from '@x/service-kernel';
import type { NamespaceJoin } from '../network/egress-networks.js';
import {
  baseEnvironment,
  endSandbox,
  type SandboxUser,
  spawnSandbox,
} from '../sandbox/bubblewrap.js';
import type { SessionCgroup } from '../sandbox/cgroups.js';
import { CdpConnection } from './cdp-connection.js';
import { type InstanceDirectory, PROFILE_FOLDER } from './instance-directory.js';
import { type ChromiumVersion, stealthArgs } from './stealth.js';

/** How a browser is sealed off from the host and from every other browser. */
export interface BrowserSandbox {
  /** bubblewrap, which every browser runs in. */
  readonly bubblewrap: string;
  /** The unprivileged user of this browser (when the server runs as root). */
  readonly user: SandboxUser | undefined;
  /** Whether Chromium's own renderer sandbox works inside ours (it needs user namespaces). */
  readonly isChromiumSandboxed: boolean;
  /** The session's cgroup, where the host allows one: its limits hold for the browser. */
  readonly cgroup?: SessionCgroup | undefined;
}

/** The X display a headed browser shows on. */
export interface BrowserDisplay {
  /** `:N`, for DISPLAY. */
  readonly name: string;
  /** The X authority file with the display's cookie, as the browser sees it. */
  readonly xauthority: string;
}

/** What one Chromium is started with. */
export interface ChromiumOptions {
  readonly chromePath: string;
  readonly instance: InstanceDirectory;
  readonly isHeadless: boolean;
  /**
   * The user agent of a browser that hides that it is automated (see stealth.ts), whose
   * switches it is started with; undefined for any other.
   */
  readonly stealthUserAgent?: string | undefined;
  /** Unpacked extensions to load (host folders). */
  readonly extensionDirs?: readonly string[];
  readonly display?: BrowserDisplay | undefined;
  readonly viewport: { readonly width: number; readonly height: number };
  /**
   * The session's own network (how to join its namespace, and the resolv.conf naming its
   * resolver); undefined: the host's.
   */
  readonly network?: { readonly join: NamespaceJoin; readonly resolvConf: string } | undefined;
  /**
   * The proxy control extension's folder on the host (the server's, read-only to the browser):
   * bound into the sandbox at PROXY_CONTROL_INSIDE, for a proxy switch while it runs.
   */
  readonly proxyControlDir?: string | undefined;
  /** A JSON file of Chrome enterprise policies, read as the browser's managed policies. */
  readonly policyFile?: string | undefined;
  /** Where its traffic goes: `--proxy-server` and `--proxy-bypass-list` as Chromium reads them. */
  readonly proxy?: { readonly server: string; readonly bypassList: string } | undefined;
  /**
   * The sandbox; undefined runs Chromium straight on the host, which only the benchmarks do, to
   * measure what the sandbox costs.
   */
  readonly sandbox: BrowserSandbox | undefined;
}

/** A started Chromium: its process (bubblewrap's, whose group holds it all) and its DevTools pipe. */
export interface StartedChromium {
  readonly process: ChildProcess;
  readonly cdp: CdpConnection;
  /** Where the browser saves downloads, as it sees the path. */
  readonly downloadsPath: string;
  /** Its product and version, as it reported them at start. */
  readonly version: ChromiumVersion;
}

/** The session's policies inside the sandbox, in the folder Chromium reads managed policies from. */
const MANAGED_POLICY_INSIDE = '/etc/chromium/policies/managed/session.json';

/** Where extension folders appear inside the sandbox. */
const EXTENSIONS_INSIDE = '/opt/xb/extensions';

/** Where the proxy control extension appears inside the sandbox. */
export const PROXY_CONTROL_INSIDE = '/opt/xb/proxy-control';

/** The parts of /etc Chromium reads besides those every program needs. */
const CHROMIUM_ETC = [
  'fonts',
  'chromium',
  'chromium.d',
  'hosts',
  'resolv.conf',
  'host.conf',
  'gai.conf',
];

/**
 * The files of the host's /etc/chromium, each as a bind to the same path (folders walked, links
 * left out): the operator's own settings and policies, which a session's policies join and never
 * replace (its file is named apart; Chromium merges a folder's files).
 */
function hostChromiumEtc(folder = '/etc/chromium'): [string, string][] {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry): [string, string][] => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return hostChromiumEtc(path);
    return entry.isFile() ? [[path, path]] : [];
  });
}

/** The paths Chromium is given, as it sees them: inside the sandbox, or the host's own. */
interface BrowserPaths {
  readonly home: string;
  readonly profile: string;
  readonly downloads: string;
  readonly extensions: readonly string[];
}

function pathsOf(options: ChromiumOptions): BrowserPaths {
  const home = options.sandbox ? INSTANCE_HOME : options.instance.root;
  const extensions = (options.extensionDirs ?? []).map((folder, index) =>
    options.sandbox ? posix.join(EXTENSIONS_INSIDE, String(index)) : folder,
  );
  return {
    home,
    profile: posix.join(home, PROFILE_FOLDER),
    downloads: posix.join(home, 'Downloads'),
    extensions,
  };
}

/**
 * The flags every browser runs with: no GPU, none of Chromium's background networking (sync,
 * component updates, the network time and the rest `--disable-background-networking` stops),
 * DevTools over a pipe and never a port. Chromium's own sandbox stays on wherever it works. Two
 * requests of its own remain at each start, with no switch to stop them (a check of the Google
 * accounts signed in, `accounts.google.com/ListAccounts`, and an empty update request to
 * `update.googleapis.com`): they go through the session's egress policy like its pages'.
 */
function chromiumArgs(options: ChromiumOptions, paths: BrowserPaths): string[] {
  const isRendererSandboxed = options.sandbox
    ? options.sandbox.isChromiumSandboxed
    : process.getuid?.() !== 0;
  return [
    ...(options.isHeadless ? ['--headless=new'] : []),
    ...(isRendererSandboxed ? [] : ['--no-sandbox']),
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    '--remote-debugging-pipe',
    // Chromium 15x builds the address bar's drop-down as web pages of its own and loads them
    // ahead, in a renderer, at every start: more than half of a browser's CPU time up to its
    // first page (1.1 of 2.5 s), for a drop-down nobody opens through DevTools. Without them
    // the drop-down is drawn natively, as before. Nor does it ask Google's servers for the time
    // at every start (`NetworkTimeServiceQuerying`: used only to tell a wrong clock behind a
    // certificate error).
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,NetworkTimeServiceQuerying',
    // The network service runs in the browser's own process rather than one of its own: on Linux
    // Chromium gives that process no sandbox of its own (it runs with the browser's rights, in
    // the browser's sandbox, either way), so nothing is given up but a process to start, link
    // and feed at every browser start (about a tenth of a pooled browser's CPU time).
    '--enable-features=NetworkServiceInProcess2',
    // Cookies and saved logins are encrypted with Chromium's own key, not a desktop keyring
    // (a sandbox has none): a profile saved by one browser opens in the next.
    '--password-store=basic',
    ...(options.proxy
      ? [
          `--proxy-server=${options.proxy.server}`,
          `--proxy-bypass-list=${options.proxy.bypassList}`,
        ]
      : []),
    `--user-data-dir=${paths.profile}`,
    `--window-size=${options.viewport.width},${options.viewport.height}`,
    ...(options.stealthUserAgent ? stealthArgs(options.viewport, options.stealthUserAgent) : []),
    // Not `--disable-extensions-except`: it would keep the extensions loaded later into the
    // running browser (POST /browsers/{id}/extensions) disabled.
    ...(paths.extensions.length ? [`--load-extension=${paths.extensions.join(',')}`] : []),
    'about:blank',
  ];
}

/**
 * Starts the Chromium process, in its sandbox (a process group of its own, so ending the
 * browser ends everything it started); without one (the benchmarks' baseline), straight on the
 * host. fd 3 and 4 are the DevTools pipe.
 */
function spawnChromium(options: ChromiumOptions, paths: BrowserPaths): ChildProcess {
  const env = {
    ...baseEnvironment(),
    HOME: paths.home,
    ...(options.display
      ? { DISPLAY: options.display.name, XAUTHORITY: options.display.xauthority }
      : {}),
  };
  const stdio: StdioOptions = ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'];
  const args = chromiumArgs(options, paths);
  if (!options.sandbox) {
    return spawn(options.chromePath, args, {
      stdio,
      detached: true,
      env,
      cwd: options.instance.root,
    });
  }
  // A Chromium outside /usr (CHROME_PATH) is made visible, read-only, where it is.
  const installed = dirname(realpathSync(options.chromePath));
  const binds: [string, string][] = installed.startsWith('/usr/') ? [] : [[installed, installed]];
  (options.extensionDirs ?? []).forEach((folder, index) => {
    binds.push([folder, paths.extensions[index] as string]);
  });
  if (options.proxyControlDir) binds.push([options.proxyControlDir, PROXY_CONTROL_INSIDE]);
  // Where Debian's Chromium reads managed policies; read-only, and the server's file (outside the
  // home): the session cannot change the policies it was started with. The host's own
  // /etc/chromium comes entry by entry then (bubblewrap cannot make a folder in its bind).
  if (options.policyFile)
    binds.push(...hostChromiumEtc(), [options.policyFile, MANAGED_POLICY_INSIDE]);
  const { network } = options;
  if (network) binds.push([network.resolvConf, '/etc/resolv.conf']);
  const spec = {
    home: options.instance.root,
    env,
    shareNetwork: true,
    network: network?.join,
    user: options.sandbox.user,
    cgroup: options.sandbox.cgroup,
    readOnlyBinds: binds,
    // Chromium's own renderer sandbox is made of namespaces: the browser filter leaves them.
    seccomp: 'browser' as const,
    // Its own resolv.conf, naming its relay, when it has a network of its own; its own
    // /etc/chromium, when it has policies of its own.
    etcEntries: CHROMIUM_ETC.filter(
      (entry) =>
        !(network && entry === 'resolv.conf') && !(options.policyFile && entry === 'chromium'),
    ),
  };
  return spawnSandbox(options.sandbox.bubblewrap, spec, options.chromePath, args, stdio);
}

/** Starts Chromium and waits until it answers over its DevTools pipe. */
export async function startChromium(
  options: ChromiumOptions,
  timeoutMs = 30_000,
): Promise<StartedChromium> {
  if (!existsSync(options.chromePath)) {
    throw new Error(
      `No Chromium at ${options.chromePath}: install it (apt-get install chromium) or set CHROME_PATH.`,
    );
  }
  const paths = pathsOf(options);
  const child = spawnChromium(options, paths);
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    // Only the tail is kept, for the error of a browser that fails to start.
    output = (output + chunk.toString()).slice(-4000);
  });
  const cdp = new CdpConnection(child.stdio[3] as Writable, child.stdio[4] as Readable);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let version: ChromiumVersion;
  try {
    version = await Promise.race([
      cdp.send<ChromiumVersion>('Browser.getVersion'),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Chromium did not start within ${timeoutMs} ms.`)),
          timeoutMs,
        );
        child.once('error', (error) =>
          reject(new Error(`Cannot start Chromium: ${error.message}`)),
        );
        child.once('exit', (code, signal) =>
          reject(new Error(`Chromium exited at start (${code ?? signal}).`)),
        );
      }),
    ]);
  } catch (error) {
    cdp.close();
    await endSandbox(child);
    throw new Error(`${(error as Error).message}\n${output.slice(-2000)}`);
  } finally {
    clearTimeout(timer);
    child.removeAllListeners('exit');
    child.removeAllListeners('error');
    // From now on an error of the child (a signal it could not be sent) ends nothing: the
    // browser's end is seen by its exit and its pipe.
    child.on('error', () => undefined);
  }
  return {
    process: child,
    cdp,
    downloadsPath: paths.downloads,
    version: { product: version.product },
  };
}
