import { BrowserPathSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { ScreenshotBodySchema } from './screenshot.js';
import { countCharacters, TypeTextBodySchema } from './type-text.js';

/** POST /browsers/{id}/computer/type (4.2): types text as a person would, key by key. */
export const typeTextOperation = defineOperation({
  name: 'browsers.computer.type',
  summary: 'Type text on the browser instance.',
  specSection: '4.2',
  method: 'POST',
  path: '/browsers/{id}/computer/type',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: TypeTextBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
  serverTimeMs: (body: { text: string; delay: number }) => countCharacters(body.text) * body.delay,
});

/** POST /browsers/{id}/computer/screenshot: a PNG of the viewport or a region of it. */
export const screenshotOperation = defineOperation({
  name: 'browsers.computer.screenshot',
  summary: 'Take a PNG screenshot of the browser.',
  method: 'POST',
  path: '/browsers/{id}/computer/screenshot',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: ScreenshotBodySchema },
  responses: { 200: { kind: 'binary', mediaType: 'image/png' } },
  errorStatuses: [404],
  access: 'read',
});
