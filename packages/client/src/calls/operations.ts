/**
 * Every operation as a function of a core (`createCore`), for apps that bundle only what they
 * call: `await getBrowserPool(core, { id_or_name })`. Each is the same call as the client method
 * of the same operation (`client.browserPools.get`); upload and stream code comes only with the
 * operations that need it.
 */
import {
  acquireBrowserOperation,
  batchOperation,
  checkProxyOperation,
  clickMouseOperation,
  createBrowserOperation,
  createBrowserPoolOperation,
  createDirectoryOperation,
  createInvocationOperation,
  createLiveViewOperation,
  createProfileOperation,
  createProxyOperation,
  deleteBrowserOperation,
  deleteBrowserPoolOperation,
  deleteDirectoryOperation,
  deleteExtensionOperation,
  deleteFileOperation,
  deleteProfileOperation,
  deleteProxyOperation,
  downloadDirZipOperation,
  downloadExtensionOperation,
  downloadProfileOperation,
  downloadReplayOperation,
  dragMouseOperation,
  execProcessOperation,
  fileInfoOperation,
  flushBrowserPoolOperation,
  getBrowserOperation,
  getBrowserPoolOperation,
  getInvocationOperation,
  getMousePositionOperation,
  getProcessStatusOperation,
  getProfileOperation,
  getProxyOperation,
  killProcessOperation,
  listBrowserPoolsOperation,
  listBrowsersOperation,
  listExtensionsOperation,
  listFilesOperation,
  listInvocationBrowsersOperation,
  listInvocationsOperation,
  listProfilesOperation,
  listProxiesOperation,
  listReplaysOperation,
  moveFileOperation,
  moveMouseOperation,
  pressKeyOperation,
  readClipboardOperation,
  readFileOperation,
  releaseBrowserOperation,
  screenshotOperation,
  scrollOperation,
  setCursorVisibilityOperation,
  setFilePermissionsOperation,
  spawnProcessOperation,
  startReplayOperation,
  startWatchOperation,
  stopReplayOperation,
  stopWatchOperation,
  streamProcessOutputOperation,
  typeTextOperation,
  updateBrowserPoolOperation,
  updateInvocationOperation,
  updateProfileOperation,
  updateProxyOperation,
  uploadExtensionOperation,
  uploadFilesOperation,
  uploadZipOperation,
  watchEventsOperation,
  writeClipboardOperation,
  writeFileOperation,
} from '@x/types';
import { readStreamBody } from '../streams/read-body.js';
import { encodeUploadBody } from '../uploads/encode-body.js';
import { defineCall } from './define-call.js';
import { defineListCall } from './list-page.js';

// browsers.replays

/** `browsers.replays.stop` */
export const stopReplay = /* @__PURE__ */ defineCall(stopReplayOperation);

/** `browsers.replays.start` */
export const startReplay = /* @__PURE__ */ defineCall(startReplayOperation);

/** `browsers.replays.list` */
export const listReplays = /* @__PURE__ */ defineListCall(listReplaysOperation);

/** `browsers.replays.download` */
export const downloadReplay = /* @__PURE__ */ defineCall(downloadReplayOperation, {
  readBody: readStreamBody,
});

// browsers.liveView

/** `browsers.liveView.create` */
export const createLiveView = /* @__PURE__ */ defineCall(createLiveViewOperation);

// browsers.computer

/** `browsers.computer.type` */
export const typeText = /* @__PURE__ */ defineCall(typeTextOperation);

/** `browsers.computer.screenshot` */
export const screenshot = /* @__PURE__ */ defineCall(screenshotOperation, {
  readBody: readStreamBody,
});

/** `browsers.computer.clickMouse` */
export const clickMouse = /* @__PURE__ */ defineCall(clickMouseOperation);

/** `browsers.computer.moveMouse` */
export const moveMouse = /* @__PURE__ */ defineCall(moveMouseOperation);

/** `browsers.computer.dragMouse` */
export const dragMouse = /* @__PURE__ */ defineCall(dragMouseOperation);

/** `browsers.computer.scroll` */
export const scroll = /* @__PURE__ */ defineCall(scrollOperation);

/** `browsers.computer.pressKey` */
export const pressKey = /* @__PURE__ */ defineCall(pressKeyOperation);

/** `browsers.computer.getMousePosition` */
export const getMousePosition = /* @__PURE__ */ defineCall(getMousePositionOperation);

/** `browsers.computer.setCursorVisibility` */
export const setCursorVisibility = /* @__PURE__ */ defineCall(setCursorVisibilityOperation);

/** `browsers.computer.readClipboard` */
export const readClipboard = /* @__PURE__ */ defineCall(readClipboardOperation);

/** `browsers.computer.writeClipboard` */
export const writeClipboard = /* @__PURE__ */ defineCall(writeClipboardOperation);

/** `browsers.computer.batch` */
export const batch = /* @__PURE__ */ defineCall(batchOperation);

// browserPools

/** `browserPools.get` */
export const getBrowserPool = /* @__PURE__ */ defineCall(getBrowserPoolOperation);

/** `browserPools.create` */
export const createBrowserPool = /* @__PURE__ */ defineCall(createBrowserPoolOperation);

/** `browserPools.list` */
export const listBrowserPools = /* @__PURE__ */ defineListCall(listBrowserPoolsOperation);

/** `browserPools.update` */
export const updateBrowserPool = /* @__PURE__ */ defineCall(updateBrowserPoolOperation);

/** `browserPools.delete` */
export const deleteBrowserPool = /* @__PURE__ */ defineCall(deleteBrowserPoolOperation);

/** `browserPools.acquire` */
export const acquireBrowser = /* @__PURE__ */ defineCall(acquireBrowserOperation);

/** `browserPools.release` */
export const releaseBrowser = /* @__PURE__ */ defineCall(releaseBrowserOperation);

/** `browserPools.flush` */
export const flushBrowserPool = /* @__PURE__ */ defineCall(flushBrowserPoolOperation);

// extensions

/** `extensions.upload` */
export const uploadExtension = /* @__PURE__ */ defineCall(uploadExtensionOperation, {
  encodeBody: encodeUploadBody,
});

/** `extensions.list` */
export const listExtensions = /* @__PURE__ */ defineListCall(listExtensionsOperation);

/** `extensions.download` */
export const downloadExtension = /* @__PURE__ */ defineCall(downloadExtensionOperation, {
  readBody: readStreamBody,
});

/** `extensions.delete` */
export const deleteExtension = /* @__PURE__ */ defineCall(deleteExtensionOperation);

// invocations

/** `invocations.listBrowsers` */
export const listInvocationBrowsers = /* @__PURE__ */ defineCall(listInvocationBrowsersOperation);

/** `invocations.create` */
export const createInvocation = /* @__PURE__ */ defineCall(createInvocationOperation);

/** `invocations.list` */
export const listInvocations = /* @__PURE__ */ defineListCall(listInvocationsOperation);

/** `invocations.get` */
export const getInvocation = /* @__PURE__ */ defineCall(getInvocationOperation);

/** `invocations.update` */
export const updateInvocation = /* @__PURE__ */ defineCall(updateInvocationOperation);

// browsers.process

/** `browsers.process.status` */
export const getProcessStatus = /* @__PURE__ */ defineCall(getProcessStatusOperation);

/** `browsers.process.spawn` */
export const spawnProcess = /* @__PURE__ */ defineCall(spawnProcessOperation);

/** `browsers.process.exec` */
export const execProcess = /* @__PURE__ */ defineCall(execProcessOperation);

/** `browsers.process.kill` */
export const killProcess = /* @__PURE__ */ defineCall(killProcessOperation);

/** `browsers.process.output` */
export const streamProcessOutput = /* @__PURE__ */ defineCall(streamProcessOutputOperation, {
  readBody: readStreamBody,
});

// browsers.fs.watch

/** `browsers.fs.watch.stop` */
export const stopWatch = /* @__PURE__ */ defineCall(stopWatchOperation);

/** `browsers.fs.watch.start` */
export const startWatch = /* @__PURE__ */ defineCall(startWatchOperation);

/** `browsers.fs.watch.events` */
export const watchEvents = /* @__PURE__ */ defineCall(watchEventsOperation, {
  readBody: readStreamBody,
});

// browsers

/** `browsers.create` */
export const createBrowser = /* @__PURE__ */ defineCall(createBrowserOperation);

/** `browsers.list` */
export const listBrowsers = /* @__PURE__ */ defineListCall(listBrowsersOperation);

/** `browsers.get` */
export const getBrowser = /* @__PURE__ */ defineCall(getBrowserOperation);

/** `browsers.delete` */
export const deleteBrowser = /* @__PURE__ */ defineCall(deleteBrowserOperation);

// browsers.fs

/** `browsers.fs.readFile` */
export const readFile = /* @__PURE__ */ defineCall(readFileOperation, { readBody: readStreamBody });

/** `browsers.fs.writeFile` */
export const writeFile = /* @__PURE__ */ defineCall(writeFileOperation, {
  encodeBody: encodeUploadBody,
});

/** `browsers.fs.listFiles` */
export const listFiles = /* @__PURE__ */ defineCall(listFilesOperation);

/** `browsers.fs.fileInfo` */
export const fileInfo = /* @__PURE__ */ defineCall(fileInfoOperation);

/** `browsers.fs.createDirectory` */
export const createDirectory = /* @__PURE__ */ defineCall(createDirectoryOperation);

/** `browsers.fs.deleteFile` */
export const deleteFile = /* @__PURE__ */ defineCall(deleteFileOperation);

/** `browsers.fs.deleteDirectory` */
export const deleteDirectory = /* @__PURE__ */ defineCall(deleteDirectoryOperation);

/** `browsers.fs.move` */
export const moveFile = /* @__PURE__ */ defineCall(moveFileOperation);

/** `browsers.fs.setFilePermissions` */
export const setFilePermissions = /* @__PURE__ */ defineCall(setFilePermissionsOperation);

/** `browsers.fs.upload` */
export const uploadFiles = /* @__PURE__ */ defineCall(uploadFilesOperation, {
  encodeBody: encodeUploadBody,
});

/** `browsers.fs.uploadZip` */
export const uploadZip = /* @__PURE__ */ defineCall(uploadZipOperation, {
  encodeBody: encodeUploadBody,
});

/** `browsers.fs.downloadDirZip` */
export const downloadDirZip = /* @__PURE__ */ defineCall(downloadDirZipOperation, {
  readBody: readStreamBody,
});

// profiles

/** `profiles.create` */
export const createProfile = /* @__PURE__ */ defineCall(createProfileOperation);

/** `profiles.list` */
export const listProfiles = /* @__PURE__ */ defineListCall(listProfilesOperation);

/** `profiles.get` */
export const getProfile = /* @__PURE__ */ defineCall(getProfileOperation);

/** `profiles.update` */
export const updateProfile = /* @__PURE__ */ defineCall(updateProfileOperation);

/** `profiles.delete` */
export const deleteProfile = /* @__PURE__ */ defineCall(deleteProfileOperation);

/** `profiles.download` */
export const downloadProfile = /* @__PURE__ */ defineCall(downloadProfileOperation, {
  readBody: readStreamBody,
});

// proxies

/** `proxies.create` */
export const createProxy = /* @__PURE__ */ defineCall(createProxyOperation);

/** `proxies.list` */
export const listProxies = /* @__PURE__ */ defineListCall(listProxiesOperation);

/** `proxies.get` */
export const getProxy = /* @__PURE__ */ defineCall(getProxyOperation);

/** `proxies.update` */
export const updateProxy = /* @__PURE__ */ defineCall(updateProxyOperation);

/** `proxies.delete` */
export const deleteProxy = /* @__PURE__ */ defineCall(deleteProxyOperation);

/** `proxies.check` */
export const checkProxy = /* @__PURE__ */ defineCall(checkProxyOperation);
