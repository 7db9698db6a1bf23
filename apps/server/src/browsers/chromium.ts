import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** What one Chromium is started with. */
export interface ChromiumOptions {
  readonly chromePath: string;
  readonly userDataDir: string;
  readonly isHeadless: boolean;
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
    'about:blank',
  ];
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
  const child = spawn(options.chromePath, chromiumArgs(options), {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const fail = (message: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
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
