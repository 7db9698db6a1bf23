#!/usr/bin/env node
/**
 * The `xb` bin: a thin shim. It first checks that the Node.js it runs on is one `xb` declares
 * (`engines`), saying so in one line (exit 1) if not. `--version` is answered here without loading
 * anything else, so a cold start costs little more than Node's own; every other call loads the
 * CLI and runs it.
 */
import { VERSION } from '../version.js';

/** The oldest Node.js major `xb` runs on: `engines.node` of its package.json. */
export const NODE_MAJOR = 22;

const argv = process.argv.slice(2);
if (Number(process.versions.node.split('.')[0]) < NODE_MAJOR) {
  process.stderr.write(
    `xb: needs Node.js ${NODE_MAJOR} or newer, and ${process.execPath} is Node.js ${process.versions.node}.\n`,
  );
  process.exitCode = 1;
} else if (argv.length === 1 && argv[0] === '--version') {
  process.stdout.write(`${VERSION}\n`);
} else {
  const controller = new AbortController();
  // The first Ctrl-C asks the command to stop (it cleans up and exits 130); a second one forces it.
  process.once('SIGINT', () => {
    controller.abort(new Error('Interrupted'));
    process.once('SIGINT', () => process.exit(130));
  });
  const { run, nodeIo } = await import('../cli.js');
  process.exitCode = await run(argv, nodeIo(controller.signal));
}
