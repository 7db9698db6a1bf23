import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every temporary file of a package's test run (vitest's globalSetup in each package) goes under
 * one folder of its own, removed when the run ends: tests make data directories (and the key
 * files a server writes beside them), config folders, Chromium profiles and archives freely, and
 * none outlives the run. Workers inherit TMPDIR, so `os.tmpdir()` in any test names this folder.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'xb-tests-'));
  process.env.TMPDIR = root;
  return () => {
    try {
      rmSync(root, { recursive: true, force: true });
    } catch (error) {
      // Something a test left mounted or busy: said, not hidden.
      console.warn(`the test run's temporary folder ${root} could not be removed: ${error}`);
    }
  };
}
