import { ServiceError } from '@x/service-kernel';
import type { CdpConnection } from './cdp-connection.js';

/**
 * Loads the unpacked extension in `folder` (seen from inside the sandbox: a folder of its home)
 * into the running browser, as `--load-extension` would have at its start; its content scripts
 * run on the pages loaded from now on. Gives its id; a refusal is a 400 in Chromium's words.
 */
export async function loadUnpackedExtension(cdp: CdpConnection, folder: string): Promise<string> {
  try {
    const { id } = await cdp.send<{ id: string }>('Extensions.loadUnpacked', {
      path: folder,
    });
    return id;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ServiceError('bad_request', `The browser did not load ${folder}: ${why}`);
  }
}

/** Unloads an extension the browser loaded; one already gone is fine. */
export async function uninstallExtension(cdp: CdpConnection, extensionId: string): Promise<void> {
  // One already gone refuses the uninstall, and there is nothing left to unload.
  await cdp.send('Extensions.uninstall', { id: extensionId }).catch(() => undefined);
}
