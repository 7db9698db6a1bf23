import type { CdpConnection } from './cdp-connection.js';

/**
 * Sets where a running browser's new connections go: through `proxy` (a relay's `--proxy-server`
 * and bypass list) or direct. Chromium reads its proxy from its settings, and an extension's
 * setting wins over the command line, so the proxy control extension (`extensionId`, loaded)
 * sets it from a hidden page of its own, opened and closed through `tab`.
 */
export async function setProxyThrough(
  cdp: CdpConnection,
  extensionId: string,
  proxy: { readonly server: string; readonly bypassList: string } | undefined,
  tab: {
    readonly open: (url: string) => Promise<{ targetId: string; session: string }>;
    readonly close: (targetId: string) => Promise<void>;
  },
): Promise<void> {
  let value: Record<string, unknown> = { mode: 'direct' };
  if (proxy) {
    const server = new URL(proxy.server);
    value = {
      mode: 'fixed_servers',
      rules: {
        singleProxy: {
          scheme: server.protocol.replace(':', ''),
          host: server.hostname,
          port: Number(server.port),
        },
        bypassList: proxy.bypassList.split(';').filter((entry) => entry !== ''),
      },
    };
  }
  const { targetId, session: sessionId } = await tab.open(
    `chrome-extension://${extensionId}/control.html`,
  );
  try {
    const expression = `new Promise((resolve, reject) => chrome.proxy.settings.set(
      { value: ${JSON.stringify(value)}, scope: 'regular' },
      () => chrome.runtime.lastError
        ? reject(new Error(chrome.runtime.lastError.message))
        : chrome.proxy.settings.get({}, (details) => resolve(details.levelOfControl))))`;
    let control: string | undefined;
    // The page may not have its extension API yet right after it opened: a few tries.
    for (let attempt = 0; attempt < 50 && control === undefined; attempt++) {
      const { result, exceptionDetails } = await cdp.send<{
        result: { value?: unknown };
        exceptionDetails?: { text: string; exception?: { description?: string } };
      }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
      if (!exceptionDetails) {
        control = String(result.value);
        break;
      }
      const why = exceptionDetails.exception?.description ?? exceptionDetails.text;
      if (!/chrome\.proxy|undefined/.test(why)) throw new Error(why);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (control !== 'controlled_by_this_extension')
      throw new Error(`the browser's proxy setting is ${control ?? 'out of reach'}`);
  } finally {
    await tab.close(targetId);
  }
}
