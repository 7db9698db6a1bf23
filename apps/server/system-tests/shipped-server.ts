import { MAIN, startServerProcess } from '../src/test-support/binary.js';

/**
 * Starts the built `xb-server` as an operator does: a process of its own with only a shell's
 * basics (PATH, HOME, TMPDIR) and its settings `env`, on port 0 with no spare browsers unless
 * `env` says otherwise; the test stops it (it outlives the test that started it).
 */
export function startShippedServer(env: Record<string, string>) {
  return startServerProcess(
    [process.execPath, MAIN],
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      XB_PORT: '0',
      XB_SPARE_BROWSERS: '0',
      ...env,
    },
    undefined,
    true,
  );
}
