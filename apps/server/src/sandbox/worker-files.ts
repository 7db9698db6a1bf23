import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INSTANCE_HOME } from '@x/service-kernel';
import { baseEnvironment, type SandboxUser, spawnSandbox } from './bubblewrap.js';
import type { SessionCgroup } from './cgroups.js';

/**
 * The script of a worker the server runs in a session's sandbox, next to the module at
 * `moduleUrl`: built (`<name>.js`, beside the bundle) or the source (`<name>.ts`, in tests, in
 * `folder` of the sources). Its real path; undefined when there is none.
 */
export function workerScript(moduleUrl: string, name: string, folder: string): string | undefined {
  const here = dirname(fileURLToPath(moduleUrl));
  const script = [
    join(here, `${name}.js`),
    join(here, `${name}.ts`),
    join(here, folder, `${name}.ts`),
  ].find((path) => existsSync(path));
  return script && realpathSync(script);
}

/**
 * The folder of package `name` as `from` resolves it, also for a package whose `exports` keep its
 * package.json to itself: its entry point's nearest folder with that package's package.json.
 */
export function packageFolder(name: string, from: NodeJS.Require): string {
  try {
    return realpathSync(dirname(from.resolve(`${name}/package.json`)));
  } catch {
    let folder = dirname(realpathSync(from.resolve(name)));
    while (folder !== dirname(folder)) {
      const manifest = join(folder, 'package.json');
      if (
        existsSync(manifest) &&
        (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name
      )
        return folder;
      folder = dirname(folder);
    }
    throw new Error(`No folder of package ${name}.`);
  }
}

/** Where a worker's parts are inside its sandbox. */
const INSIDE = '/opt/xb';

/** What a sandboxed Node worker runs from, on the host. */
export interface WorkerFiles {
  /** The Node binary. */
  readonly node: string;
  /** Its script (`.ts` in tests: run with its types stripped). */
  readonly script: string;
  /** Package folders, each bound under the sandbox's node_modules by its name. */
  readonly packages: Readonly<Record<string, string>>;
}

/**
 * Starts a Node worker in a session's sandbox, as its user, in its cgroup, with no network and
 * the process seccomp filter: Node, the script and its packages are bound read-only under
 * /opt/xb, the session's home is its home. Its stdio is `stdio`'s (fd 3 and on included).
 */
export function spawnWorker(
  bubblewrap: string,
  session: {
    readonly home: string;
    readonly user: SandboxUser | undefined;
    readonly cgroup: SessionCgroup | undefined;
  },
  files: WorkerFiles,
  nodeArgs: readonly string[],
  stdio: ('pipe' | 'ignore')[],
): ChildProcess {
  // Named as its file is (`playwright-worker.mjs`), so its command line says which worker it is.
  const name = basename(files.script).replace(/\.[jt]s$/, '');
  const script = `${INSIDE}/${name}.${files.script.endsWith('.ts') ? 'mts' : 'mjs'}`;
  return spawnSandbox(
    bubblewrap,
    {
      home: session.home,
      env: { ...baseEnvironment(), HOME: INSTANCE_HOME },
      shareNetwork: false,
      user: session.user,
      cgroup: session.cgroup,
      seccomp: 'process',
      readOnlyBinds: [
        [files.node, `${INSIDE}/bin/node`],
        [files.script, script],
        ...Object.entries(files.packages).map(([name, folder]): [string, string] => [
          folder,
          `${INSIDE}/node_modules/${name}`,
        ]),
      ],
    },
    `${INSIDE}/bin/node`,
    ['--no-warnings', ...nodeArgs, script],
    stdio,
  );
}
