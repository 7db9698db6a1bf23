import { notFound, refusals } from '@x/service-kernel';
import {
  type BrowserSession,
  POOL_BROWSER_TIMEOUT_SECONDS,
  SESSION_URL_LIFETIME_SECONDS,
} from '@x/types';
import { type ContractCheck, defineChecks } from './check.js';
import { type Answer, expect } from './context.js';
import { createBrowser, createPool, uniqueName } from './resources.js';

/** The `exp` claim of a session URL's jwt, in epoch seconds. */
function jwtExpiry(url: string): number {
  const jwt = new URL(url).searchParams.get('jwt') ?? '';
  const payload = jwt.split('.')[1] ?? '';
  return Number(
    (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp?: unknown }).exp,
  );
}

/** Throws unless an Error answer says exactly `message`. */
function expectMessage(answer: Answer, message: string): void {
  const said = (answer.json as { message?: unknown } | undefined)?.message;
  expect(
    said === message,
    `${answer.call}: said ${JSON.stringify(said)}, not ${JSON.stringify(message)}`,
  );
}

/**
 * Rules where implementations once drifted apart: every implementation (the fake, the server)
 * must answer each exactly so.
 */
export const ruleChecks: readonly ContractCheck[] = defineChecks('rules', {
  'a session URL stays valid its whole lifetime, however short the idle time-out': async (
    context,
  ) => {
    const session = await createBrowser(context, { timeout_seconds: 10 });
    const left = jwtExpiry(session.cdp_ws_url) - Date.now() / 1000;
    expect(
      Math.abs(left - SESSION_URL_LIFETIME_SECONDS) < 300,
      `the session URL's jwt expires in ${Math.round(left)} s, not ${SESSION_URL_LIFETIME_SECONDS} s`,
    );
  },
  'a profile that is not there is 404, never dropped silently': async (context) => {
    const answer = await context.call('POST', '/browsers', {
      json: { profile: { name: 'no-such-profile' } },
    });
    context.expectError(answer, 404, 'not_found');
    expectMessage(answer, notFound('profile', 'no-such-profile').message);
  },
  'a caller who goes away stops its typing before the next character': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const path = `/browsers/${id}/computer/type`;
    const controller = new AbortController();
    const slow = context
      .call('POST', path, { json: { text: 'x'.repeat(20), delay: 400 }, signal: controller.signal })
      // Aborted on purpose below: how the call ends is not what is checked.
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    controller.abort();
    await slow;
    // Input is one call at a time: the next waits for the first, which must have stopped.
    const started = performance.now();
    context.expectSuccess(
      await context.call('POST', path, { json: { text: 'y' } }),
      'browsers.computer.type',
      204,
    );
    const waited = performance.now() - started;
    expect(
      waited < 3_000,
      `typing went on after its caller left: the next call waited ${Math.round(waited)} ms`,
    );
  },
  'the same mistake is answered in the same words': async (context) => {
    const unknown = await context.call('GET', '/browsers/br_doesnotexist');
    expectMessage(unknown, notFound('browser session', 'br_doesnotexist').message);
    const pool = await createPool(context, { size: 1 });
    const name = pool.name as string;
    const taken = await context.call('POST', '/browser_pools', { json: { size: 1, name } });
    expectMessage(taken, refusals.poolNameTaken(name).message);
    const missing = await context.call('GET', `/browser_pools/${uniqueName('none')}`);
    context.expectError(missing, 404, 'not_found');
    const acquired = context.expectSuccess<BrowserSession>(
      await context.call('POST', `/browser_pools/${name}/acquire`, {
        json: { acquire_timeout_seconds: 60 },
      }),
      'browserPools.acquire',
      200,
    );
    const busy = await context.call('DELETE', `/browser_pools/${name}`);
    context.expectError(busy, 409, 'conflict');
    expectMessage(busy, refusals.poolHasAcquired(name, 1).message);
    const release = (sessionId: string) =>
      context.call('POST', `/browser_pools/${name}/release`, { json: { session_id: sessionId } });
    context.expectSuccess(await release(acquired.session_id), 'browserPools.release', 204);
    const again = await release(acquired.session_id);
    expectMessage(again, refusals.leaseEnded(acquired.session_id).message);
    const stranger = await release('br_notinthispool');
    expectMessage(stranger, refusals.notInPool(name, 'br_notinthispool').message);
  },
  "a pool's browsers take the catalog's defaults": async (context) => {
    const pool = await createPool(context, { size: 1 });
    const session = context.expectSuccess<BrowserSession>(
      await context.call('POST', `/browser_pools/${pool.id}/acquire`, {
        json: { acquire_timeout_seconds: 60 },
      }),
      'browserPools.acquire',
      200,
    );
    expect(
      session.timeout_seconds === POOL_BROWSER_TIMEOUT_SECONDS,
      `a pool browser has timeout_seconds ${session.timeout_seconds}, not ${POOL_BROWSER_TIMEOUT_SECONDS}`,
    );
    expect(session.headless === true, 'a pool browser is not headless by default');
    expect(session.pool?.id === pool.id, 'the session does not name its pool');
  },
});
