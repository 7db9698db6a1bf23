import { deploymentHandlers } from './apps/deployment-handlers.js';
import { authHandlers } from './auth/auth-handlers.js';
import { browserHandlers } from './browsers/browser-handlers.js';
import { computerHandlers } from './computer/computer-handlers.js';
import { credentialHandlers } from './credentials/credential-handlers.js';
import { curlHandlers } from './curl/curl-handlers.js';
import type { BrowserInstance } from './engines.js';
import { extensionHandlers } from './extensions/extension-handlers.js';
import { fileHandlers } from './files/file-handlers.js';
import { watchHandlers } from './fs-watch/watch-handlers.js';
import type { HandlerTable } from './handler.js';
import { invocationHandlers } from './invocations/invocation-handlers.js';
import { liveViewHandlers } from './live-view/live-view-handlers.js';
import { logHandlers } from './logs/log-handlers.js';
import { orgHandlers } from './org/org-handlers.js';
import type { Organization } from './org/organization.js';
import { playwrightHandlers } from './playwright/playwright-handlers.js';
import { poolHandlers } from './pools/pool-handlers.js';
import { processHandlers } from './processes/process-handlers.js';
import { profileHandlers } from './profiles/profile-handlers.js';
import { proxyHandlers } from './proxies/proxy-handlers.js';
import { replayHandlers } from './replays/replay-handlers.js';
import type { ServiceModel } from './service-model.js';
import { telemetryHandlers } from './telemetry/telemetry-handlers.js';

/**
 * Every operation of the catalog over the service model: the one handler table the fake and the
 * server answer with. A new operation fails to compile here until it has a handler. The
 * organization's operations act on `organization` (a fake's reset may replace it, so it is asked
 * for each call); every other operation on the model of the project the call acts in.
 */
export function serviceHandlers<I extends BrowserInstance>(
  organization: () => Organization<I>,
): HandlerTable<ServiceModel<I>> {
  return {
    ...browserHandlers<I>(),
    ...computerHandlers<I>(),
    ...processHandlers<I>(),
    ...watchHandlers<I>(),
    ...fileHandlers<I>(),
    ...replayHandlers<I>(),
    ...liveViewHandlers<I>(),
    ...extensionHandlers<I>(),
    ...poolHandlers<I>(),
    ...invocationHandlers<I>(),
    ...profileHandlers<I>(),
    ...proxyHandlers<I>(),
    ...credentialHandlers<I>(),
    ...authHandlers<I>(),
    ...orgHandlers<I>(organization),
    ...playwrightHandlers<I>(),
    ...curlHandlers<I>(),
    ...logHandlers<I>(),
    ...telemetryHandlers<I>(),
    ...deploymentHandlers<I>(),
  };
}
