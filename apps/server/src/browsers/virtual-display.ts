import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** An X display of its own for one headed browser. */
export interface VirtualDisplay {
  /** `:N`, for DISPLAY. */
  readonly display: string;
  readonly process: ChildProcess;
  close(): Promise<void>;
}

/** Where Xvfb is, when it is installed. */
export function findXvfb(): string | undefined {
  for (const folder of (process.env.PATH ?? '/usr/bin').split(delimiter)) {
    const candidate = join(folder, 'Xvfb');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Starts Xvfb on a free display of the viewport's size. `-displayfd` makes Xvfb pick the display
 * and say it once the server is ready, so two browsers never race for one.
 */
export function startVirtualDisplay(
  xvfbPath: string,
  size: { width: number; height: number },
  timeoutMs = 10_000,
): Promise<VirtualDisplay> {
  const child = spawn(
    xvfbPath,
    ['-displayfd', '1', '-screen', '0', `${size.width}x${size.height}x24`, '-nolisten', 'tcp'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Xvfb did not start within ${timeoutMs} ms.`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited at start (${code}).`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const number = /^(\d+)\n/.exec(output)?.[1];
      if (number === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        display: `:${number}`,
        process: child,
        async close() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
