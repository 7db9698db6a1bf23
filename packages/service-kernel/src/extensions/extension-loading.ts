import type { LoadExtensionsForm, LoadedExtensions } from '@x/types';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance } from '../engines.js';
import type { FileModel } from '../files/file-model.js';
import { INSTANCE_HOME } from '../messages.js';
import { ServiceError } from '../service-error.js';
import { checkExtensionArchive } from './extension-archive.js';

/** Where the extensions loaded into a running browser are unpacked, a folder of each by name. */
export const LOADED_EXTENSIONS_FOLDER = `${INSTANCE_HOME}/.extensions`;

/**
 * Loads unpacked extensions into a running browser: every archive is checked first (the rules of
 * uploads: a bad one loads none), then each is unpacked into `~/.extensions/<name>` (replacing
 * what that folder held) and loaded by the browser, without a restart. If the browser refuses
 * one, those this call loaded are unloaded again and the call answers why: all or none.
 */
export async function loadExtensions<I extends BrowserInstance>(
  browsers: BrowserModel<I>,
  files: FileModel<I>,
  browserId: string,
  form: LoadExtensionsForm,
): Promise<LoadedExtensions> {
  const entry = browsers.live(browserId);
  for (const [index, extension] of form.extensions.entries()) {
    try {
      checkExtensionArchive(new Uint8Array(await extension.zip_file.arrayBuffer()));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      throw new ServiceError(
        error.code,
        `extensions[${index}][zip_file] (${extension.name}): ${error.message}`,
        { headers: { ...error.headers } },
      );
    }
  }
  const loaded: LoadedExtensions['extensions'] = [];
  try {
    for (const [index, extension] of form.extensions.entries()) {
      const folder = `${LOADED_EXTENSIONS_FOLDER}/${extension.name}`;
      await files.replaceWithZip(
        browserId,
        folder,
        extension.zip_file,
        `extensions.${index}.zip_file`,
      );
      const extensionId = await entry.instance.loadExtension(folder);
      loaded.push({ name: extension.name, extension_id: extensionId });
    }
  } catch (error) {
    await Promise.all(
      loaded.map(({ name, extension_id: id }) =>
        // The call answers why it failed; the browser's log says what it could not take back.
        entry.instance
          .unloadExtension(id)
          .catch(() =>
            entry.log.write(
              'service',
              `extension ${name} (${id}) stays loaded: it could not be unloaded`,
            ),
          ),
      ),
    );
    throw error;
  }
  entry.log.write(
    'service',
    `loaded extensions ${loaded.map((one) => `${one.name} (${one.extension_id})`).join(', ')}`,
  );
  return { extensions: loaded };
}
