import { pause } from '../computer/computer-model.js';
import type { BrowserInstance } from '../engines.js';
import { ServiceError } from '../service-error.js';
import { type AuthFlow, FlowFailure } from './auth-flow.js';
import type { SignInDriver, SignInPage } from './sign-in-driver.js';

/** Longest a page takes to load, and a form's page to answer it, in ms. */
export const PAGE_WAIT_MS = 20_000;
/** How often a page is read while waiting for it, in ms. */
const READ_EVERY_MS = 200;

/** Waits `ms`; throws the flow's reason when it stops meanwhile. */
async function wait(ms: number, signal: AbortSignal): Promise<void> {
  await pause(ms, signal);
  signal.throwIfAborted();
}

/** What identifies a page's state: its address, its fields, its messages. */
export const signatureOf = (page: SignInPage) =>
  JSON.stringify([
    page.url,
    page.fields.map((field) => field.selector),
    page.error ?? '',
    page.blocker ?? '',
  ]);

/** The page once it has loaded. */
export async function settled<I extends BrowserInstance>(
  signIn: SignInDriver<I>,
  instance: I,
  signal: AbortSignal,
): Promise<SignInPage> {
  const until = Date.now() + PAGE_WAIT_MS;
  for (;;) {
    const page = await signIn.read(instance);
    if (!page.isLoading) return page;
    if (Date.now() > until)
      throw new FlowFailure(
        'site_unreachable',
        `The page did not load in ${PAGE_WAIT_MS / 1000} s.`,
      );
    await wait(READ_EVERY_MS, signal);
  }
}

/** Waits for the page to answer a sent form: another page, other fields, a message. */
export async function changed<I extends BrowserInstance>(
  signIn: SignInDriver<I>,
  instance: I,
  before: string,
  signal: AbortSignal,
): Promise<void> {
  const until = Date.now() + PAGE_WAIT_MS;
  for (;;) {
    await wait(READ_EVERY_MS, signal);
    const page = await signIn.read(instance);
    if (!page.isLoading && signatureOf(page) !== before) return;
    if (Date.now() > until)
      throw new FlowFailure(
        'site_unresponsive',
        `The site did not answer the sign-in in ${PAGE_WAIT_MS / 1000} s.`,
      );
  }
}

/** Waits for a person to change the page (finish a captcha, choose an account). */
export async function awaitPerson<I extends BrowserInstance>(
  signIn: SignInDriver<I>,
  flow: AuthFlow,
  instance: I,
  page: SignInPage,
  message: string,
): Promise<void> {
  flow.to('AWAITING_EXTERNAL_ACTION', { external: message });
  const before = signatureOf(page);
  for (;;) {
    await wait(READ_EVERY_MS * 2, flow.stop.signal);
    const now = await signIn.read(instance);
    if (!now.isLoading && signatureOf(now) !== before) break;
  }
  flow.to('DISCOVERING');
}

/** How an error ends a flow or a check: unreachable sites and browser faults told apart. */
export function failureOf(error: unknown): FlowFailure {
  if (error instanceof FlowFailure) return error;
  if (error instanceof ServiceError) return new FlowFailure('browser_failed', error.message);
  const message = error instanceof Error ? error.message : String(error);
  if (/ERR_|net::|NS_ERROR/.test(message)) return new FlowFailure('site_unreachable', message);
  return new FlowFailure('browser_failed', message);
}
