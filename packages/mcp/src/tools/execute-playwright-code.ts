import { z } from 'zod';
import { bounded, errorResult, textResult } from '../results.js';
import { defineTool, sessionIdInput } from '../tool.js';

/** `execute_playwright_code`: Playwright code beside a browser, on its page. */
export const executePlaywrightCode = defineTool({
  name: 'execute_playwright_code',
  title: 'Run Playwright code',
  description: [
    'Runs TypeScript or JavaScript with Playwright beside a running browser, on its current page: `page`, `context` and `browser` are in scope, and what the code returns comes back as JSON, with what it logged. It neither creates nor deletes a browser.',
    'Use it to read or change the page by selectors (click a button by its text, fill a form, wait for a response) where coordinates would be guesswork. Return only what you need: a targeted `locator(...).textContent()` or `locator(...).ariaSnapshot()`, not the whole page, which would be cut.',
    'Example: `await page.goto("https://example.com"); return await page.title();`',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  input: {
    session_id: sessionIdInput,
    code: z.string().describe('the body of an async function; `return` a value to get it back'),
    timeout_sec: z
      .number()
      .int()
      .optional()
      .describe('seconds before the code is stopped, default 60'),
  },
  async run({ session_id: id, code, timeout_sec }, { client, call, maxTextChars }) {
    const outcome = await client.browsers.playwright.execute(
      { id, code, ...(timeout_sec === undefined ? {} : { timeout_sec }) },
      call,
    );
    const logged = [
      outcome.stdout ? `stdout:\n${outcome.stdout}` : '',
      outcome.stderr ? `stderr:\n${outcome.stderr}` : '',
    ].filter(Boolean);
    if (!outcome.success) {
      return errorResult(
        bounded(
          [`The code failed: ${outcome.error ?? 'no reason given'}`, ...logged].join('\n'),
          maxTextChars,
        ),
      );
    }
    const result = JSON.stringify(outcome.result, null, 2) ?? 'undefined';
    return textResult(
      [`Result:\n${result}`, ...logged].join('\n'),
      maxTextChars,
      'return less from the code (a narrower selector, fewer fields)',
    );
  },
});
