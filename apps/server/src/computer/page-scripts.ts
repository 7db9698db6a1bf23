/**
 * Scripts the computer controls run in a page, each in a world of its own (`Page.createIsolatedWorld`):
 * they share the page's document but not its globals, so the page neither sees nor changes them.
 */

const CURSOR_STYLE_ID = 'xb-cursor-hidden';

/** Adds (hidden) or removes the style rule that hides the mouse cursor over the whole page. */
export function cursorScript(hidden: boolean): string {
  return `(() => {
  const apply = () => {
    const old = document.getElementById(${JSON.stringify(CURSOR_STYLE_ID)});
    if (!${hidden}) { old?.remove(); return; }
    if (old) return;
    const style = document.createElement('style');
    style.id = ${JSON.stringify(CURSOR_STYLE_ID)};
    style.textContent = '*, *::before, *::after { cursor: none !important; }';
    (document.head ?? document.documentElement).append(style);
  };
  if (document.documentElement) apply();
  else document.addEventListener('DOMContentLoaded', apply, { once: true });
})()`;
}

/**
 * A function of the text to write: runs a copy command whose clipboard data it sets, caught on
 * the way down (capture) so the page's own copy handlers do not change it. True once written.
 */
export const CLIPBOARD_WRITE = `(text) => {
  let written = false;
  const onCopy = (event) => {
    event.clipboardData.setData('text/plain', text);
    event.preventDefault();
    event.stopImmediatePropagation();
    written = true;
  };
  window.addEventListener('copy', onCopy, { capture: true });
  try { document.execCommand('copy'); } finally { window.removeEventListener('copy', onCopy, { capture: true }); }
  return written;
}`;

/**
 * Reading the clipboard: `arm` waits for the next paste, catching it before the page sees it
 * (focus leaves a frame first, so the paste comes to this document); `result` is its text, or
 * null when no paste came within a second.
 */
export const CLIPBOARD_READ = {
  arm: `void (globalThis.xbPaste = new Promise((resolve) => {
  if (document.activeElement instanceof HTMLIFrameElement) document.activeElement.blur();
  const onPaste = (event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
    resolve(event.clipboardData.getData('text/plain'));
  };
  window.addEventListener('paste', onPaste, { capture: true, once: true });
  setTimeout(() => { window.removeEventListener('paste', onPaste, { capture: true }); resolve(null); }, 1000);
}))`,
  result: 'globalThis.xbPaste',
} as const;
