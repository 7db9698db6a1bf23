#!/usr/bin/env node
/**
 * The `xb` bin: a thin shim. `--version` is answered here without loading anything else, so a
 * cold start costs little more than Node's own; every other call loads the CLI and runs it.
 */
import { VERSION } from '../version.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
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
