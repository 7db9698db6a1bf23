import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Where a program the server drives is (bwrap, Xvfb, ffmpeg), looked up on PATH once, when it is
 * installed; undefined when it is not.
 */
export function findExecutable(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? '/usr/bin').split(delimiter)) {
    const candidate = join(folder, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
