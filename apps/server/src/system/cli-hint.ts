import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

/** Where to look for `xb`, as the server was started. */
export interface CliWhereabouts {
  /** `PATH` of the server's environment. */
  readonly path: string | undefined;
  /** The folder of the server's own bundle (`dist`). */
  readonly serverDist: string;
  /** The Node.js the server runs on: new enough for `xb` too. */
  readonly execPath: string;
}

/** Whether `file` is a file this process may run. */
function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The lines that run `xb browsers create` on this machine, as the server was installed: `xb` when
 * it is on the PATH; else the command line's bin beside the server (installed with it, or built
 * in the same clone) run on this server's Node.js, with how to put it on the PATH from a clone;
 * else `npx @x/cli`, for a server installed from the npm registry.
 */
export function cliCreateCommand(where: CliWhereabouts): string[] {
  const onPath = (where.path ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((folder) => isExecutable(join(folder, 'xb')));
  if (onPath) return ['xb browsers create'];
  // Installed with @x/cli (node_modules/@x/server/dist beside node_modules/@x/cli).
  const installed = resolve(where.serverDist, '..', '..', 'cli', 'dist', 'bin', 'xb.js');
  // A clone: apps/server/dist beside packages/cli/dist.
  const clone = resolve(where.serverDist, '..', '..', '..');
  const built = join(clone, 'packages', 'cli', 'dist', 'bin', 'xb.js');
  const bin = existsSync(installed) ? installed : existsSync(built) ? built : undefined;
  if (bin === undefined) return ['npx @x/cli browsers create'];
  const lines = [`${quote(where.execPath)} ${quote(bin)} browsers create`];
  if (bin === built && existsSync(join(clone, 'scripts', 'install-bins.sh')))
    lines.push(
      `(bash ${quote(join(clone, 'scripts', 'install-bins.sh'))} puts xb and xb-server on the PATH)`,
    );
  return lines;
}

/** `text` as a shell word. */
function quote(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
