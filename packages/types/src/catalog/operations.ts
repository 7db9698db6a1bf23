import {
  acquireBrowserOperation,
  createBrowserPoolOperation,
  deleteBrowserPoolOperation,
  flushBrowserPoolOperation,
  getBrowserPoolOperation,
  listBrowserPoolsOperation,
  releaseBrowserOperation,
  updateBrowserPoolOperation,
} from '../browser-pools/operations.js';
import {
  createBrowserOperation,
  deleteBrowserOperation,
  getBrowserOperation,
  listBrowsersOperation,
} from '../browsers/operations.js';
import {
  batchOperation,
  clickMouseOperation,
  dragMouseOperation,
  getMousePositionOperation,
  moveMouseOperation,
  pressKeyOperation,
  readClipboardOperation,
  screenshotOperation,
  scrollOperation,
  setCursorVisibilityOperation,
  typeTextOperation,
  writeClipboardOperation,
} from '../computer/operations.js';
import {
  deleteExtensionOperation,
  downloadExtensionOperation,
  listExtensionsOperation,
  uploadExtensionOperation,
} from '../extensions/operations.js';
import {
  createDirectoryOperation,
  deleteDirectoryOperation,
  deleteFileOperation,
  downloadDirZipOperation,
  fileInfoOperation,
  listFilesOperation,
  moveFileOperation,
  readFileOperation,
  setFilePermissionsOperation,
  uploadFilesOperation,
  uploadZipOperation,
  writeFileOperation,
} from '../files/operations.js';
import {
  startWatchOperation,
  stopWatchOperation,
  watchEventsOperation,
} from '../fs-watch/operations.js';
import {
  createInvocationOperation,
  getInvocationOperation,
  listInvocationBrowsersOperation,
  listInvocationsOperation,
  updateInvocationOperation,
} from '../invocations/operations.js';
import { createLiveViewOperation } from '../live-view/operations.js';
import {
  createApiKeyOperation,
  createProjectOperation,
  deleteApiKeyOperation,
  deleteProjectOperation,
  getApiKeyOperation,
  getOrgLimitsOperation,
  getProjectLimitsOperation,
  getProjectOperation,
  listApiKeysOperation,
  listAuditLogsOperation,
  listProjectsOperation,
  rotateApiKeyOperation,
  updateApiKeyOperation,
  updateOrgLimitsOperation,
  updateProjectLimitsOperation,
  updateProjectOperation,
} from '../org/operations.js';
import {
  execProcessOperation,
  getProcessStatusOperation,
  killProcessOperation,
  resizeProcessOperation,
  spawnProcessOperation,
  streamProcessOutputOperation,
  writeProcessStdinOperation,
} from '../processes/operations.js';
import {
  createProfileOperation,
  deleteProfileOperation,
  downloadProfileOperation,
  getProfileOperation,
  listProfilesOperation,
  updateProfileOperation,
} from '../profiles/operations.js';
import {
  checkProxyOperation,
  createProxyOperation,
  deleteProxyOperation,
  getProxyOperation,
  listProxiesOperation,
  updateProxyOperation,
} from '../proxies/operations.js';
import {
  downloadReplayOperation,
  listReplaysOperation,
  startReplayOperation,
  stopReplayOperation,
} from '../replays/operations.js';
import {
  curlOperation,
  executePlaywrightOperation,
  streamLogsOperation,
} from '../workbench/operations.js';

/** Every operation of the API: the seven of the interface description and their companions. */
export const operations = [
  stopReplayOperation,
  typeTextOperation,
  getBrowserPoolOperation,
  uploadExtensionOperation,
  listInvocationBrowsersOperation,
  getProcessStatusOperation,
  stopWatchOperation,
  createBrowserOperation,
  listBrowsersOperation,
  getBrowserOperation,
  deleteBrowserOperation,
  screenshotOperation,
  clickMouseOperation,
  moveMouseOperation,
  dragMouseOperation,
  scrollOperation,
  pressKeyOperation,
  getMousePositionOperation,
  setCursorVisibilityOperation,
  readClipboardOperation,
  writeClipboardOperation,
  batchOperation,
  startReplayOperation,
  listReplaysOperation,
  downloadReplayOperation,
  createLiveViewOperation,
  spawnProcessOperation,
  execProcessOperation,
  killProcessOperation,
  streamProcessOutputOperation,
  startWatchOperation,
  watchEventsOperation,
  readFileOperation,
  writeFileOperation,
  listFilesOperation,
  fileInfoOperation,
  createDirectoryOperation,
  deleteFileOperation,
  deleteDirectoryOperation,
  moveFileOperation,
  setFilePermissionsOperation,
  uploadFilesOperation,
  uploadZipOperation,
  downloadDirZipOperation,
  createBrowserPoolOperation,
  listBrowserPoolsOperation,
  updateBrowserPoolOperation,
  deleteBrowserPoolOperation,
  acquireBrowserOperation,
  releaseBrowserOperation,
  flushBrowserPoolOperation,
  listExtensionsOperation,
  downloadExtensionOperation,
  deleteExtensionOperation,
  createInvocationOperation,
  listInvocationsOperation,
  getInvocationOperation,
  updateInvocationOperation,
  createProfileOperation,
  listProfilesOperation,
  getProfileOperation,
  updateProfileOperation,
  deleteProfileOperation,
  downloadProfileOperation,
  createProxyOperation,
  listProxiesOperation,
  getProxyOperation,
  updateProxyOperation,
  deleteProxyOperation,
  checkProxyOperation,
  createProjectOperation,
  listProjectsOperation,
  getProjectOperation,
  updateProjectOperation,
  deleteProjectOperation,
  getProjectLimitsOperation,
  updateProjectLimitsOperation,
  getOrgLimitsOperation,
  updateOrgLimitsOperation,
  createApiKeyOperation,
  listApiKeysOperation,
  getApiKeyOperation,
  updateApiKeyOperation,
  deleteApiKeyOperation,
  rotateApiKeyOperation,
  listAuditLogsOperation,
  executePlaywrightOperation,
  streamLogsOperation,
  curlOperation,
  writeProcessStdinOperation,
  resizeProcessOperation,
] as const;

/** Any operation of the catalog, with its literal types. */
export type CatalogOperation = (typeof operations)[number];

/** The dotted name of an operation of the catalog. */
export type OperationName = CatalogOperation['name'];

/** Finds a catalog operation by its dotted name. */
export function operationByName<TName extends OperationName>(
  name: TName,
): Extract<CatalogOperation, { name: TName }> {
  const found = operations.find((operation) => operation.name === name);
  if (!found) throw new TypeError(`No operation named "${name}" in the catalog`);
  return found as Extract<CatalogOperation, { name: TName }>;
}
