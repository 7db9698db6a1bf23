/**
 * The package's public names, area by area: each folder's `index.ts` says what it offers.
 */
export * from './apps/index.js';
export * from './auth/index.js';
export * from './browser-pools/index.js';
export * from './browsers/index.js';
export * from './catalog/index.js';
export * from './common/index.js';
export * from './computer/index.js';
export * from './credentials/index.js';
export * from './curl/index.js';
export * from './errors/index.js';
export * from './extensions/index.js';
export * from './files/index.js';
export * from './fs-watch/index.js';
export * from './invocations/index.js';
export * from './live-view/index.js';
export * from './logs/index.js';
export * from './org/index.js';
export * from './playwright/index.js';
export * from './processes/index.js';
export * from './profiles/index.js';
export * from './proxies/index.js';
export * from './replays/index.js';
export * from './telemetry/index.js';
