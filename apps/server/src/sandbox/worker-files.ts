import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
