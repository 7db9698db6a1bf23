import type { CdpConnection } from './cdp-connection.js';

/** A new tab made ready for the session, and the window fitted to the session's viewport. */

/**
 * Opens a blank tab, attaches to it and sets its viewport; resolves to its session and the
 * size it laid out at before.
 */
export async function attachNewPage(
  cdp: CdpConnection,
  viewport: { width: number; height: number },
  targetId?: string,
): Promise<{
  targetId: string;
  session: string;
  laidOut: { width: number; height: number };
}> {
  const target =
    targetId ??
    (await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' })).targetId;
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId: target,
    flatten: true,
  });
  await cdp.send('Page.enable', {}, sessionId);
  // The page behaves as the focused window a person works in (a headless one has no focus of
  // its own): focus events fire, and copy and paste work as they do under a person's hands.
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }, sessionId);
  await cdp.send('Page.bringToFront', {}, sessionId);
  const { cssVisualViewport } = await cdp.send<{
    cssVisualViewport: { clientWidth: number; clientHeight: number };
  }>('Page.getLayoutMetrics', {}, sessionId);
  await cdp.send(
    'Emulation.setDeviceMetricsOverride',
    { ...viewport, deviceScaleFactor: 1, mobile: false },
    sessionId,
  );
  return {
    targetId: target,
    session: sessionId,
    laidOut: {
      width: Math.round(cssVisualViewport.clientWidth),
      height: Math.round(cssVisualViewport.clientHeight),
    },
  };
}

/**
 * Grows the window by what its own parts take (a headless window keeps room for a toolbar it
 * does not draw), so that a tab opened later, by a page or by a client over CDP, lays out at
 * the session's viewport as its first tab does, with no emulation of the server's that a
 * client's own could race. Measured on the first tab before its viewport is set.
 */
export async function fitWindow(
  cdp: CdpConnection,
  page: { targetId: string; session: string; laidOut: { width: number; height: number } },
  viewport: { width: number; height: number },
): Promise<void> {
  const extraWidth = viewport.width - page.laidOut.width;
  const extraHeight = viewport.height - page.laidOut.height;
  if (extraWidth === 0 && extraHeight === 0) return;
  const { windowId, bounds } = await cdp.send<{
    windowId: number;
    bounds: { width: number; height: number };
  }>('Browser.getWindowForTarget', { targetId: page.targetId });
  await cdp.send('Browser.setWindowBounds', {
    windowId,
    bounds: { width: bounds.width + extraWidth, height: bounds.height + extraHeight },
  });
}

/**
 * Opens a hidden tab of the server's own at `url` and attaches to it: the session never
 * follows it (its input, screenshots and screen stay on its own tab). Closed again when the
 * attach fails.
 */
export async function openOwnTab(
  cdp: CdpConnection,
  ownTabs: Set<string>,
  url: string,
): Promise<{ targetId: string; session: string }> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', {
    url,
    background: true,
    hidden: true,
  });
  ownTabs.add(targetId);
  try {
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    return { targetId, session: sessionId };
  } catch (error) {
    await closeOwnTab(cdp, ownTabs, targetId);
    throw error;
  }
}

/** Closes a tab `openOwnTab` opened; one already gone is fine. */
export async function closeOwnTab(
  cdp: CdpConnection,
  ownTabs: Set<string>,
  targetId: string,
): Promise<void> {
  // A tab closed meanwhile refuses the close: it is gone either way.
  await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
  ownTabs.delete(targetId);
}
