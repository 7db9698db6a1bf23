import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The one account every login site knows. */
export const SITE_USER = 'agent';
export const SITE_EMAIL = 'agent@example.com';
export const SITE_PASSWORD = 'site-pw-Zr81-never-shown';
/** "12345678901234567890" in base32: the account's TOTP secret. */
export const SITE_TOTP_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/** RFC 6238 as the RFC writes it: 6 digits of the 30-second step at `at`. */
export function siteTotp(at: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const digest = createHmac('sha1', '12345678901234567890').update(counter).digest();
  const offset = (digest.at(-1) as number) & 0xf;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** Login sites on loopback, each under its own path, each signing in with a cookie. */
export interface LoginSites {
  readonly origin: string;
  /** Form posts each site took, by site. */
  readonly posts: Map<string, number>;
  /** The keys the look-alike page at `localhost` (`catch`) heard typed, in order. */
  readonly caught: string[];
  /** Signs every visitor out (their cookies stop working), as a session expiring would. */
  forgetSessions(): void;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

const form = (action: string, fields: string, button = 'Continue', before = '') =>
  `${before}<form method="post" action="${action}">${fields}<button type="submit">${button}</button></form>`;

const USERNAME =
  '<label for="user">Username</label><input id="user" name="username" autocomplete="username">';
const EMAIL =
  '<label for="email">Email address</label><input id="email" name="email" type="email">';
const PASSWORD = '<label for="pw">Password</label><input id="pw" name="password" type="password">';
const CODE =
  '<label for="otp">Code from your authenticator app</label><input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code">';

function cookies(request: IncomingMessage): Map<string, string> {
  return new Map(
    (request.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('=') as [string, string])
      .filter(([name]) => name),
  );
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return new URLSearchParams(body);
}

/**
 * Serves the sites the sign-in tests meet: `simple` (username and password), `two-step` (an email,
 * then a password on another page), `totp` (a password, then a code from an authenticator),
 * `captcha` (a check only a person passes, then a password). A wrong value shows the site's
 * message in `role=alert`; a signed-in visitor's `/<site>/account` says whom it signed in.
 * Hostile ones too: `moving` sends its visitor to `catch` on another host (`localhost`) at the
 * first key typed into it, and holds its page a moment so the move lands while typing goes on;
 * `catch` looks like a sign-in page and keeps every key it hears (`caught`).
 */
export async function startLoginSites(): Promise<LoginSites> {
  const sessions = new Set<string>();
  const pending = new Set<string>();
  const posts = new Map<string, number>();
  const caught: string[] = [];
  let port = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const { pathname } = new URL(request.url ?? '/', 'http://sites');
    const [, site = '', step = ''] = pathname.split('/');
    const jar = cookies(request);
    const html = (status: number, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      response.end(body);
    };
    const go = (to: string, cookie?: string) => {
      response.writeHead(303, { location: to, ...(cookie && { 'set-cookie': cookie }) });
      response.end();
    };
    const signIn = () => {
      const token = randomBytes(16).toString('hex');
      sessions.add(token);
      go(`/${site}/account`, `sid_${site}=${token}; Path=/; Max-Age=86400; HttpOnly`);
    };
    const advance = (next: string) => {
      const token = randomBytes(16).toString('hex');
      pending.add(token);
      go(`/${site}/${next}`, `pending_${site}=${token}; Path=/; HttpOnly`);
    };
    const isPending = pending.has(jar.get(`pending_${site}`) ?? '');
    if (step === 'account') {
      if (sessions.has(jar.get(`sid_${site}`) ?? ''))
        html(200, page('Your account', `<p id="who">Signed in as ${SITE_USER}</p>`));
      else go(`/${site}/login`);
      return;
    }
    if (request.method === 'POST') posts.set(site, (posts.get(site) ?? 0) + 1);
    const values = request.method === 'POST' ? await formOf(request) : undefined;
    const wrong = (message: string, fields: string) =>
      html(
        200,
        page(
          'Sign in',
          form(pathname, fields, 'Sign in', `<div role="alert" class="error">${message}</div>`),
        ),
      );
    /** A username and password form, with a script of the page's own. */
    const signInWith = (script: string) =>
      html(
        200,
        page(
          'Sign in',
          `${form(pathname, USERNAME + PASSWORD, 'Sign in')}<script>${script}</script>`,
        ),
      );
    switch (`${site}/${step}`) {
      case 'simple/login':
        if (!values)
          return html(200, page('Sign in', form(pathname, USERNAME + PASSWORD, 'Sign in')));
        if (values.get('username') === SITE_USER && values.get('password') === SITE_PASSWORD)
          return signIn();
        return wrong('Incorrect username or password.', USERNAME + PASSWORD);
      case 'two-step/login':
        if (!values) return html(200, page('Sign in', form(pathname, EMAIL, 'Next')));
        if (values.get('email') === SITE_EMAIL) return advance('password');
        return wrong('No account has that email address.', EMAIL);
      case 'two-step/password':
      case 'captcha/password':
        if (!isPending) return go(`/${site}/login`);
        if (!values)
          return html(200, page('Enter your password', form(pathname, PASSWORD, 'Sign in')));
        if (values.get('password') === SITE_PASSWORD) return signIn();
        return wrong('That password is not right.', PASSWORD);
      case 'totp/login':
        if (!values)
          return html(200, page('Sign in', form(pathname, USERNAME + PASSWORD, 'Sign in')));
        if (values.get('username') === SITE_USER && values.get('password') === SITE_PASSWORD)
          return advance('code');
        return wrong('Incorrect username or password.', USERNAME + PASSWORD);
      case 'totp/code': {
        if (!isPending) return go(`/${site}/login`);
        if (!values)
          return html(200, page('Two-step verification', form(pathname, CODE, 'Verify')));
        const now = Date.now();
        const code = values.get('otp');
        if ([now - 30_000, now, now + 30_000].some((at) => siteTotp(at) === code)) return signIn();
        return wrong('That code is not valid.', CODE);
      }
      case 'moving/login':
        if (values) return wrong('Incorrect username or password.', USERNAME + PASSWORD);
        return signInWith(`document.addEventListener('keydown', () => {
          location.href = 'http://localhost:${port}/catch/login';
          for (const until = Date.now() + 1000; Date.now() < until; );
        }, { once: true });`);
      case 'catch/login':
        if (values) return wrong('Incorrect username or password.', USERNAME + PASSWORD);
        return signInWith(`document.addEventListener('keydown', (event) => {
          fetch('/catch/keys', { method: 'POST', body: new URLSearchParams({ k: event.key }) });
        });`);
      case 'catch/keys':
        caught.push(values?.get('k') ?? '');
        response.writeHead(204);
        response.end();
        return;
      case 'captcha/login':
        if (!values)
          return html(
            200,
            page(
              'Are you human?',
              form(
                pathname,
                '<div class="captcha-box">Press the button to prove you are human.</div>',
                'I am human',
              ),
            ).replace('<button type="submit">', '<button type="submit" autofocus>'),
          );
        return advance('password');
      default:
        html(404, page('Not found', '<p>Nothing here.</p>'));
    }
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    posts,
    caught,
    forgetSessions: () => sessions.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
