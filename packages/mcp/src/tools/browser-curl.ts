import { z } from 'zod';
import { textResult } from '../results.js';
import { defineTool, sessionIdInput } from '../tool.js';

/** `browser_curl`: an HTTP request made by the browser itself. */
export const browserCurl = defineTool({
  name: 'browser_curl',
  title: 'HTTP through the browser',
  description: [
    'Makes an HTTP request from inside a running browser, with its cookies, proxy and network rules: what a signed-in page would get, without loading the page. Returns the status, the headers and the body (utf8, or base64 with response_encoding for bytes).',
    'Use it for APIs and downloads behind the login the browser holds; use execute_playwright_code to read a page as rendered.',
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
    url: z.string().describe('an http or https URL'),
    method: z
      .enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
      .optional()
      .describe('default GET'),
    headers: z.record(z.string(), z.string()).optional().describe('headers over the browser’s own'),
    body: z.string().optional().describe('the request body, sent as UTF-8'),
    response_encoding: z
      .enum(['utf8', 'base64'])
      .optional()
      .describe('how the body comes back, default utf8'),
    timeout_ms: z
      .number()
      .int()
      .optional()
      .describe('ms before the request is given up, default 30000'),
  },
  async run({ session_id: id, ...request }, { client, call, maxTextChars }) {
    const answer = await client.browsers.curl(
      Object.fromEntries(
        Object.entries({ id, ...request }).filter(([, value]) => value !== undefined),
      ) as { id: string; url: string },
      call,
    );
    const headers = Object.entries(answer.headers)
      .flatMap(([name, values]) => values.map((value) => `${name}: ${value}`))
      .join('\n');
    return textResult(
      `HTTP ${answer.status} in ${answer.duration_ms} ms\n${headers}\n\n${answer.body}`,
      maxTextChars,
      'ask for a narrower resource, or a Range of it',
    );
  },
});
