import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser } from './resources.js';

/** The path and query of an absolute URL, to call on the target. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** Live view links: made, scoped, refused, and never handed to a read-only token. */
export const liveViewChecks: readonly ContractCheck[] = defineChecks('live view', {
  "every session's browser_live_view_url opens its page; a made link has the mode asked for":
    async (context) => {
      const session = await createBrowser(context);
      const id = session.session_id;
      const live = session.browser_live_view_url ?? '';
      expect(
        new RegExp(`/browsers/${id}/live\\?jwt=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`).test(live),
        `browser_live_view_url is "${live}"`,
      );
      const page = await context.call('GET', pathOf(live), { token: null });
      expect(page.status === 200, `the page answers ${page.status}`);
      expect(
        page.headers.get('content-type')?.startsWith('text/html') === true,
        'the page is HTML',
      );
      const made = context.expectSuccess<{ url: string; mode: string; expires_at: string }>(
        await context.call('POST', `/browsers/${id}/live_view`, {
          json: { mode: 'read', ttl_seconds: 60 },
        }),
        'browsers.liveView.create',
        201,
      );
      expect(made.mode === 'read', `the link's mode is ${made.mode}`);
      const left = Date.parse(made.expires_at) - Date.now();
      expect(left > 0 && left <= 61_000, `the link expires in ${left} ms, not about 60 s`);
      const opened = await context.call('GET', pathOf(made.url), { token: null });
      expect(opened.status === 200, `a made link's page answers ${opened.status}`);
    },
  "another session's link, a DevTools key or a forged jwt opens nothing (401)": async (context) => {
    const first = await createBrowser(context);
    const second = await createBrowser(context);
    const jwtOf = (url: string) => new URL(url).searchParams.get('jwt') ?? '';
    for (const [what, jwt] of [
      ["another session's link", jwtOf(second.browser_live_view_url ?? '')],
      ['the DevTools key', jwtOf(first.cdp_ws_url)],
      ['a forged jwt', 'e30.e30.AAAA'],
    ] as const) {
      const answer = await context.call('GET', `/browsers/${first.session_id}/live?jwt=${jwt}`, {
        token: null,
      });
      expect(answer.status === 401, `${what} answers ${answer.status}`);
    }
  },
  'a read-only token makes no link and sees none: its records carry no jwt': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const refused = await context.call('POST', `/browsers/${id}/live_view`, {
      json: {},
      token: context.target.readOnlyToken,
    });
    context.expectError(refused, 403, 'forbidden');
    const seen = await context.call('GET', `/browsers/${id}`, {
      token: context.target.readOnlyToken,
    });
    const live = (seen.json as { browser_live_view_url?: string }).browser_live_view_url ?? '';
    expect(!live.includes('jwt='), `a read-only token sees "${live}"`);
  },
  'a bad mode or ttl_seconds is 400, an unknown session 404': async (context) => {
    const { session_id: id } = await createBrowser(context);
    for (const json of [{ mode: 'drive' }, { ttl_seconds: 0 }, { ttl_seconds: 86_401 }]) {
      context.expectError(
        await context.call('POST', `/browsers/${id}/live_view`, { json }),
        400,
        'bad_request',
      );
    }
    context.expectError(
      await context.call('POST', '/browsers/br_missing/live_view', { json: {} }),
      404,
      'not_found',
    );
  },
});
