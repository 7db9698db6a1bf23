import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** What one Chromium is started with. */
export interface ChromiumOptions {
  readonly chromePath: string;
  readonly userDataDir: string;
  /** HOME of the browser: what it writes outside its profile (crash reports, caches) stays here. */
  readonly homeDir: string;
  readonly isHeadless: boolean;
  /** Unpacked extensions to load. */
  readonly extensionDirs?: readonly string[];
  /** The X display a headed browser shows on (`:N`). */
  readonly display?: string;
  readonly viewport: { readonly width: number; readonly height: number };
}

/** A started Chromium: its process and the browser-level DevTools WebSocket URL. */
export interface StartedChromium {
  readonly process: ChildProcess;
  readonly devtoolsUrl: string;
}

/**
 * The flags every browser runs with: headless without a sandbox of its own (the server runs as a
 * service user or in a container), no GPU, and nothing that phones home, so a closed network sees
 * no refused connections.
 */
function chromiumArgs(options: ChromiumOptions): string[] {
  return [
    ...(options.isHeadless ? ['--headless=new'] : []),
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    `--user-data-dir=${options.userDataDir}`,
    `--window-size=${options.viewport.width},${options.viewport.height}`,
    ...(options.extensionDirs?.length
      ? [
          `--load-extension=${options.extensionDirs.join(',')}`,
          `--disable-extensions-except=${options.extensionDirs.join(',')}`,
        ]
      : []),
    'about:blank',
  ];
}

/**
 * Processes whose command line names `userDataDir` (or, with `isPrefix`, any profile under it):
 * a Chromium and every helper it started.
 */
export function processesOfProfile(userDataDir: string, isPrefix = false): number[] {
  const marker = `--user-data-dir=${userDataDir}`;
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        return args.some((arg) => (isPrefix ? arg.startsWith(marker) : arg === marker));
      } catch {
        return false; // It ended while the list was read.
      }
    })
    .map(Number);
}

/**
 * Ends every process of a Chromium profile and waits until they are gone: the browser's process
 * group, and the helpers (zygotes) that start groups of their own.
 */
export async function endProcessesOf(child: ChildProcess, userDataDir: string): Promise<void> {
  if (child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The whole group has already ended.
    }
  }
  for (let attempt = 0; attempt < 100; attempt++) {
    const pids = processesOfProfile(userDataDir);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It ended between the look and the kill.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts Chromium and waits for its DevTools endpoint. */
export function startChromium(
  options: ChromiumOptions,
  timeoutMs = 30_000,
): Promise<StartedChromium> {
  if (!existsSync(options.chromePath)) {
    return Promise.reject(
      new Error(
        `No Chromium at ${options.chromePath}: install it (apt-get install chromium) or set CHROME_PATH.`,
      ),
    );
  }
  // Its own process group, and its own HOME: what it writes outside its profile (crash reports,
  // caches) stays in the instance, and closing it can end every process it started.
  const child = spawn(options.chromePath, chromiumArgs(options), {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    env: {
      ...process.env,
      HOME: options.homeDir,
      ...(options.display ? { DISPLAY: options.display } : {}),
    },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const fail = (message: string) => {
      clearTimeout(timer);
      void endProcessesOf(child, options.userDataDir);
      reject(new Error(`${message}\n${output.slice(-2000)}`));
    };
    const timer = setTimeout(
      () => fail(`Chromium did not start within ${timeoutMs} ms.`),
      timeoutMs,
    );
    child.once('error', (error) => fail(`Cannot start Chromium: ${error.message}`));
    child.once('exit', (code, signal) => fail(`Chromium exited at start (${code ?? signal}).`));
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.stderr?.removeAllListeners('data');
        // Keep draining stderr so a chatty browser never blocks on a full pipe.
        child.stderr?.resume();
        resolve({ process: child, devtoolsUrl: match[1] as string });
      }
    });
  });
}
