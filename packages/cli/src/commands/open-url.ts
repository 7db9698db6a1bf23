import { spawn } from 'node:child_process';
import type { CommandContext, FlagSpec } from './command.js';

/** `--open`: open a URL the command prints in the system's web browser. */
export const OPEN_FLAG: FlagSpec = {
  name: 'open',
  kind: 'boolean',
  description: "open it in the system's web browser ($BROWSER, else the desktop's opener)",
};

/** The command that opens a URL here: `$BROWSER` when set, else the platform's opener. */
function opener(env: CommandContext['io']['env']): { command: string; args: string[] } {
  const chosen = env.BROWSER?.trim();
  if (chosen) return { command: chosen, args: [] };
  if (process.platform === 'darwin') return { command: 'open', args: [] };
  if (process.platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  return { command: 'xdg-open', args: [] };
}

/**
 * Opens `url` in the system's web browser, without waiting for it. Says on stderr, and does not
 * fail, when there is none (a server, a container): the URL was printed to open by hand. Resolves
 * once the browser started or was found missing.
 */
export function openUrl(context: CommandContext, url: string): Promise<void> {
  const { command, args } = opener(context.io.env);
  return new Promise((resolve) => {
    const child = spawn(command, [...args, url], { stdio: 'ignore', detached: true });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    child.once('error', () => {
      context.io.stderr.write(
        `No web browser to open it with here (${command} not found): open the URL above yourself.\n`,
      );
      resolve();
    });
  });
}
