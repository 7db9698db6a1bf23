import { CliError } from './cli-error.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import type { Colors } from './output/colors.js';

/** What the CLI says about a failure, and how it exits. */
export interface Report {
  readonly exitCode: ExitCode;
  /** One sentence, with the code and request id when the service gave them. */
  readonly message: string;
}

const sentence = (text: string) => (/[.!?)…]$/.test(text) ? text : `${text}.`);

/** Turns any failure into one sentence and an exit code, as `xb --help` documents them. */
export async function reportError(
  error: unknown,
  signal: AbortSignal | undefined,
): Promise<Report> {
  if (signal?.aborted) return { exitCode: EXIT_CODES.interrupted, message: 'Interrupted.' };
  if (error instanceof CliError)
    return { exitCode: error.exitCode, message: sentence(error.message) };
  // Loaded only now: a command that failed in the client has loaded it already.
  const client = await import('@x/client');
  if (client.InputValidationError.isInstance(error)) {
    const problems = error.details.map((detail) => detail.message).join('; ');
    return {
      exitCode: EXIT_CODES.usage,
      message: `Invalid input: ${problems} (see --help for the flags).`,
    };
  }
  if (client.ConfigurationError.isInstance(error))
    return { exitCode: EXIT_CODES.usage, message: sentence(error.message) };
  if (client.AbortError.isInstance(error))
    return { exitCode: EXIT_CODES.interrupted, message: 'Interrupted.' };
  if (client.ApiError.isInstance(error)) {
    // The fields the message does not name already (the service names the first few).
    const details = (error.details ?? [])
      .map((detail) => detail.message)
      .filter((text) => text && !error.message.includes(text));
    // The client's message starts with "404 not_found: "; the code goes at the end here.
    const prefix = `${error.status} ${error.code}: `;
    const said = error.message.startsWith(prefix)
      ? error.message.slice(prefix.length)
      : error.message;
    const text = `${sentence(said)}${details.length ? ` ${details.join('; ')}.` : ''}`;
    const tags = [error.code, error.requestId ? `request ${error.requestId}` : undefined]
      .filter(Boolean)
      .join(', ');
    const exitCode =
      error.status === 401 || error.status === 403
        ? EXIT_CODES.auth
        : error.status === 404
          ? EXIT_CODES.notFound
          : EXIT_CODES.api;
    return { exitCode, message: `${text} (${tags})` };
  }
  if (client.XError.isInstance(error)) {
    // Connection errors, time-outs and answers that break the contract: the service failed us.
    return { exitCode: EXIT_CODES.api, message: `${sentence(error.message)} (${error.code})` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    exitCode: EXIT_CODES.unexpected,
    message: `Unexpected error: ${sentence(message)} Please report it.`,
  };
}

/** A report as the line written to stderr. */
export function formatReport(report: Report, colors: Colors): string {
  return `${colors.red('error:')} ${report.message}\n`;
}
