import { EXIT_CODES, type ExitCode } from './exit-codes.js';

/** An error the CLI reports as one sentence on stderr, exiting with its code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** A usage error or bad input (exit 2); the message says how to fix it. */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT_CODES.usage);
}
