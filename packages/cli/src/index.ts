/**
 * @x/cli: `xb`, the command line for the cloud browser service. The behaviour lives in `run`,
 * which tests and other programs call directly; the `xb` bin is a thin shim around it.
 */
export { CliError } from './cli-error.js';
export { EXIT_CODES, type ExitCode } from './exit-codes.js';
export { type CliIo, type CliOutput, nodeIo } from './io.js';
export { run } from './run.js';
export { VERSION } from './version.js';
