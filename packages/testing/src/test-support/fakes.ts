import type { BrowserSession } from '@x/types';
import { afterEach } from 'vitest';
import {
  createFakeService,
  type FakeService,
  type FakeServiceOptions,
} from '../fake/fake-service.js';
import { apiOf } from './api.js';

/** Fakes made through `fakeService` are closed after each test. */
const open: FakeService[] = [];
afterEach(async () => {
  for (const fake of open.splice(0)) await fake.close();
});

/** A fake that is closed after the test. */
export function fakeService(options?: FakeServiceOptions): FakeService {
  const fake = createFakeService(options);
  open.push(fake);
  return fake;
}

/** Creates a browser on the fake through the API. */
export async function newBrowser(
  fake: FakeService,
  body: Record<string, unknown> = {},
): Promise<BrowserSession> {
  const answer = await apiOf(fake).call('POST', '/browsers', { json: body });
  if (answer.status !== 201) throw new Error(`create browser: ${answer.status} ${answer.text}`);
  return answer.json as BrowserSession;
}
