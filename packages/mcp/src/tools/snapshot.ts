import { z } from 'zod';
import { bounded, errorResult, textResult } from '../results.js';
import { defineTool, sessionIdInput } from '../tool.js';

/** How long the page may take to give its snapshot before the call says so. */
const SNAPSHOT_TIMEOUT_MS = 5_000;

/** The Playwright code that reads a page's accessibility snapshot (of `selector`'s first match). */
export function snapshotCode(selector: string): string {
  return [
    `const target = page.locator(${JSON.stringify(selector)}).first();`,
    `const snapshot = await target.ariaSnapshot({ timeout: ${SNAPSHOT_TIMEOUT_MS} });`,
    'return { url: page.url(), title: await page.title(), snapshot };',
  ].join('\n');
}

/** `browser_snapshot`: the page as text an agent can act on, without pixels. */
export const browserSnapshot = defineTool({
  name: 'browser_snapshot',
  title: 'Page snapshot',
  description: [
    "Answers the browser's current page as an accessibility snapshot: its headings, links, buttons, form fields and text as a YAML tree of roles and names, the way a screen reader sees it, with the page's URL and title.",
    'Use it to read a page and find what to act on without a screenshot: cheaper than pixels, and the names it shows are what `execute_playwright_code` locates by (`page.getByRole("button", { name: "Sign in" })`).',
    'Give `selector` to snapshot one part of the page (a form, a dialog, `main`); a long page is cut and says so.',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  input: {
    session_id: sessionIdInput,
    selector: z
      .string()
      .optional()
      .describe(
        'a CSS or Playwright selector: only that part of the page (its first match); default: the whole page',
      ),
  },
  async run({ session_id: id, selector }, { client, call, maxTextChars }) {
    const outcome = await client.browsers.playwright.execute(
      { id, code: snapshotCode(selector ?? 'body'), timeout_sec: 30 },
      call,
    );
    if (!outcome.success) {
      return errorResult(
        bounded(`The snapshot failed: ${outcome.error ?? 'no reason given'}`, maxTextChars),
      );
    }
    const { url, title, snapshot } = (outcome.result ?? {}) as {
      url?: string;
      title?: string;
      snapshot?: string;
    };
    return textResult(
      [`Page: ${title || '(no title)'} (${url ?? 'unknown address'})`, '', snapshot ?? ''].join(
        '\n',
      ),
      maxTextChars,
      'snapshot one part of the page with `selector`',
    );
  },
});
