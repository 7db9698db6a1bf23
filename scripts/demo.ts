/**
 * The main job: prints the operation catalog and writes the OpenAPI 3.1 document, then starts the
 * self-hosted server (real Chromium) with its embedded defaults and drives it through the `xb`
 * command line: an agent's code deployed and invoked (its browser made with its invocation's id), a
 * browser with a page typed into, a screenshot that shows the text, a pool, a sandboxed process, a replay, the live view a person opens and types through, an
 * extension, a login kept in a profile from one session to the next. Everything made is saved under out/.
 * Run through `bash scripts/demo.sh`, which builds the packages first.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildExtensionArchive } from '@x/testing';
import { operations } from '@x/types';
import { createOpenApiDocument } from '@x/types/openapi';
import { chromium, type Page } from 'playwright-core';
import { startSmallInternet } from '../apps/server/src/test-support/small-internet.ts';
import { launchViewer } from '../apps/server/src/test-support/viewer.ts';

const XB = 'packages/cli/dist/bin/xb.js';
const XB_SERVER = 'apps/server/dist/main.js';

// The API in one line by area; each operation's method, path and statuses are in the reference.
const areas = new Map<string, number>();
for (const operation of operations) {
  const area = operation.name.split('.')[0] as string;
  areas.set(area, (areas.get(area) ?? 0) + 1);
}
console.log(
  `The API: ${operations.length} operations (${[...areas].map(([area, count]) => `${area} ${count}`).join(', ')}),\n` +
    'each described once in @x/types; every one with its method, path and answers in docs/reference.md.',
);
mkdirSync('out', { recursive: true });
writeFileSync('out/openapi.json', `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`);
writeFileSync('out/extension.zip', buildExtensionArchive());
// An agent's code, written with @x/client/apps (brought along: no package.json, nothing to
// install): `hello` answers at once; `checkout` runs until its invocation is ended.
rmSync('out/demo-agent', { recursive: true, force: true });
mkdirSync('out/demo-agent/node_modules/@x/client', { recursive: true });
cpSync('packages/client/package.json', 'out/demo-agent/node_modules/@x/client/package.json');
cpSync('packages/client/dist', 'out/demo-agent/node_modules/@x/client/dist', { recursive: true });
writeFileSync(
  'out/demo-agent/app.mts',
  `import { defineApp } from '@x/client/apps';

const agent = defineApp('demo-agent');

agent.action('hello', async (_context, payload?: { name?: string }) => ({
  greeting: \`hello \${payload?.name ?? 'world'}\`,
}));

// Runs until its invocation is ended: the browsers made with its id are the demo's to drive.
agent.action('checkout', async (context) => {
  console.log('checkout started for', context.invocation_id);
  await new Promise((resolve) => context.signal?.addEventListener('abort', resolve));
});
`,
);
console.log('The OpenAPI 3.1 document of the API is written to out/openapi.json.');

/** Starts a program that prints its URL (as a JSON log line or a plain line) and resolves to it. */
function start(
  program: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [program, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    // The fake says its URL on stdout; the server on stderr (its stdout is the JSON log).
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /(?:listening at |^)(http:\/\/\S+)$/m.exec(output)?.[1];
      if (url) resolve({ child, url });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`${program} exited ${code}: ${output}`)));
  });
}

/** A command line as a person would type it: words with spaces or quotes are quoted. */
const shown = (args: readonly string[]) =>
  args
    .map((arg) => (/^[\w./:=@-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`))
    .join(' ');

/** Runs xb against `env`'s service, as a person would, showing the command and its output. */
function xb(env: NodeJS.ProcessEnv, ...args: string[]): void {
  console.log(`$ xb ${shown(args)}`);
  const result = spawnSync(process.execPath, [XB, ...args], { env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`xb ${args.join(' ')} exited ${result.status}`);
}

/** A session URL as it may be shown: its jwt (a credential for the session) left out. */
const withoutJwt = (text: string) => text.replace(/jwt=[\w.-]+/g, 'jwt=…');

/** Runs xb with --json, shows the command and the document it printed, and gives the document. */
function xbJson<T>(env: NodeJS.ProcessEnv, ...args: string[]): T {
  console.log(`$ xb ${shown(args)} --json`);
  const result = spawnSync(process.execPath, [XB, ...args, '--json'], { env, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`xb ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  process.stdout.write(withoutJwt(result.stdout));
  return JSON.parse(result.stdout) as T;
}

// The demo's own small internet (root only: its sites live in a network namespace): HTTPS sites
// under example.test, a resolver that answers their names, and the CA of their certificates, which
// the server is told of as an operator tells it of a company's resolver and CA.
const internet =
  process.getuid?.() === 0
    ? await startSmallInternet({
        'shop.example.test':
          '<title>Example Shop</title><body style="font: 24px sans-serif"><h1>Example Shop</h1><p>served over HTTPS, found by its name</p></body>',
      })
    : undefined;
// The server with its embedded defaults: data in ./.xb-data, a token generated on the first run.
const server = await start(XB_SERVER, [], {
  ...process.env,
  XB_PORT: '0',
  XB_ALLOW_NETWORKS: '127.0.0.1/32',
  XB_LOG_LEVEL: 'warn',
  ...internet?.env,
});
const token = spawnSync('cat', ['.xb-data/token'], { encoding: 'utf8' }).stdout.trim();
const atServer = { ...process.env, XB_BASE_URL: server.url, XB_TOKEN: token, NO_COLOR: '' };
console.log(
  `\nThe self-hosted server runs at ${server.url} (real Chromium; token in .xb-data/token).\n`,
);
try {
  await byNameDemo(atServer);
  // The agent deployed (followed until it runs), then invoked: once and answered, once running on.
  xb(atServer, 'deploy', 'out/demo-agent', '--version', 'demo', '--force', '--with-node-modules');
  xb(atServer, 'apps');
  xb(
    atServer,
    'invoke',
    'demo-agent',
    'hello',
    '--version',
    'demo',
    '--payload',
    '{"name":"demo"}',
  );
  const invocation = xbJson<{ id: string }>(
    atServer,
    'invocations',
    'create',
    'demo-agent',
    'checkout',
    '--version',
    'demo',
    '--async',
  );
  const browser = xbJson<{ session_id: string; cdp_ws_url: string }>(
    atServer,
    'browsers',
    'create',
    '--name',
    'checkout',
    '--invocation-id',
    invocation.id,
    '--viewport',
    '{"width":1024,"height":600}',
  );
  // Open a page through the session's CDP URL, as an agent's Playwright would.
  const playwright = await chromium.connectOverCDP(browser.cdp_ws_url);
  const page = playwright.contexts()[0]?.pages()[0];
  await page?.setContent(`<body style="font: 28px sans-serif; margin: 40px">
    <h1>xb demo</h1><textarea id="box" rows="4" cols="40" style="font-size: 28px"></textarea></body>`);
  await page?.focus('#box');
  console.log(`(a page with a text box is open in ${browser.session_id}, through its cdp_ws_url)`);
  const { replay_id } = xbJson<{ replay_id: string }>(
    atServer,
    'replays',
    'start',
    browser.session_id,
    '--framerate',
    '10',
  );
  xb(
    atServer,
    'computer',
    'type',
    browser.session_id,
    'héllo 世界 👋\ntyped through xb',
    '--delay',
    '10',
  );
  // Click into the text box where it is on the screen, then paste from the browser's clipboard.
  const box = await page?.locator('#box').boundingBox();
  const [x, y] = [Math.round((box?.x ?? 0) + 20), Math.round((box?.y ?? 0) + 20)];
  xb(atServer, 'computer', 'click', browser.session_id, String(x), String(y));
  xb(atServer, 'computer', 'press', browser.session_id, 'Ctrl+End', 'Return');
  xb(atServer, 'computer', 'clipboard-write', browser.session_id, 'pasted from the clipboard');
  xb(atServer, 'computer', 'press', browser.session_id, 'Ctrl+v');
  console.log(`(the page reads back: ${JSON.stringify(await page?.inputValue('#box'))})`);
  // By the browser's name, as a person would: xb looks it up.
  if (page) await liveViewDemo(atServer, 'checkout', page);
  console.log(
    `(after the live view, the page reads: ${JSON.stringify(await page?.inputValue('#box'))})`,
  );
  await playwright.close();
  xb(atServer, 'computer', 'screenshot', browser.session_id, '-o', 'out/screenshot.png');
  xb(atServer, 'replays', 'stop', browser.session_id, replay_id);
  xb(atServer, 'replays', 'download', browser.session_id, replay_id, '-o', 'out/replay.mp4');
  xb(atServer, 'browsers', 'list');
  // A file round trip: written through the API, read and appended to by a sandboxed process on
  // the instance, listed, and read back.
  writeFileSync('out/notes.txt', 'written through xb fs write\n');
  xb(atServer, 'fs', 'write', browser.session_id, '/home/browser/notes/notes.txt', 'out/notes.txt');
  xb(
    atServer,
    'process',
    'exec',
    browser.session_id,
    'sh',
    '--',
    '-c',
    'cat notes/notes.txt && echo "appended by a sandboxed process" >> notes/notes.txt',
  );
  xb(atServer, 'fs', 'ls', browser.session_id, '/home/browser/notes');
  xb(
    atServer,
    'fs',
    'read',
    browser.session_id,
    '/home/browser/notes/notes.txt',
    '-o',
    'out/notes-back.txt',
  );
  console.log(
    `(out/notes-back.txt holds: ${JSON.stringify(readFileSync('out/notes-back.txt', 'utf8'))})`,
  );
  await profileDemo(atServer);
  xb(atServer, 'extensions', 'upload', 'out/extension.zip', '--name', 'demo-extension');
  xb(atServer, 'pools', 'create', 'demo-pool', '--size', '2', '--fill-rate-per-minute', '100');
  for (let attempt = 0; attempt < 100; attempt++) {
    if (
      xbJsonQuiet<{ available_count: number }>(atServer, 'pools', 'get', 'demo-pool')
        .available_count === 2
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const acquired = xbJson<{ session_id: string }>(atServer, 'pools', 'acquire', 'demo-pool');
  xb(atServer, 'pools', 'get', 'demo-pool');
  xb(atServer, 'pools', 'release', 'demo-pool', acquired.session_id);
  xb(atServer, 'invocations', 'browsers', invocation.id);
  xb(atServer, 'invocations', 'update', invocation.id, '--status', 'succeeded');
  xb(atServer, 'invocations', 'get', invocation.id);
  xb(atServer, 'deployments', 'list', '--app-name', 'demo-agent');
  const [deployment] = xbJsonQuiet<{ id: string; status: string }[]>(
    atServer,
    'deployments',
    'list',
    '--app-name',
    'demo-agent',
  ).filter((each) => each.status === 'running');
  if (deployment) xb(atServer, 'deployments', 'delete', deployment.id);
  xb(atServer, 'pools', 'delete', 'demo-pool', '--force');
  xb(atServer, 'extensions', 'delete', 'demo-extension');
} finally {
  // The server stops gracefully (every browser closed, its disk unmounted): the demo waits for
  // it, so nothing of it is cut short by the demo's own exit.
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  await exited;
  await internet?.close();
}

/**
 * A session opens a site by its host name over HTTPS, as it would any site of the internet: the
 * name answered by the resolver the server was given, the certificate issued by the CA it trusts.
 */
async function byNameDemo(env: NodeJS.ProcessEnv): Promise<void> {
  if (!internet) {
    console.log("(a page by host name: left out, the demo's small internet needs root)");
    return;
  }
  console.log(
    `(the server asks the demo's resolver (XB_SESSION_NAMESERVERS=${internet.env.XB_SESSION_NAMESERVERS}) and trusts its CA (XB_SESSION_CA_FILE))`,
  );
  const session = xbJson<{ session_id: string; cdp_ws_url: string }>(env, 'browsers', 'create');
  const browser = await chromium.connectOverCDP(session.cdp_ws_url);
  try {
    const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
    const response = await page.goto('https://shop.example.test/');
    console.log(
      `(${session.session_id} opened https://shop.example.test/: ${response?.status()} "${await page.title()}", over ${response?.url().split(':')[0]})`,
    );
  } finally {
    await browser.close();
  }
  xb(env, 'browsers', 'delete', session.session_id);
}

/**
 * Log in once, reuse it: a site on loopback sets a login cookie; the first session logs in and
 * saves into a profile as it ends; the next session starts logged in.
 */
async function profileDemo(env: NodeJS.ProcessEnv): Promise<void> {
  const site = createServer((request, response) => {
    response.setHeader('content-type', 'text/html');
    if (request.url === '/login') {
      response.setHeader('set-cookie', 'user=ada; Max-Age=86400');
      response.end('<title>logged in as ada</title>');
      return;
    }
    const user = /user=(\w+)/.exec(request.headers.cookie ?? '')?.[1];
    response.end(`<title>${user ? `welcome back, ${user}` : 'please log in'}</title>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const titleAt = async (cdpUrl: string, path: string) => {
    const browser = await chromium.connectOverCDP(cdpUrl);
    try {
      const page = browser.contexts()[0]?.pages()[0];
      await page?.goto(`${siteUrl}${path}`);
      return await page?.title();
    } finally {
      await browser.close();
    }
  };
  try {
    // A profile left by an earlier run of the demo goes first.
    spawnSync(process.execPath, [XB, 'profiles', 'delete', 'demo-login'], { env });
    xb(env, 'profiles', 'create', '--name', 'demo-login');
    const first = xbJson<{ session_id: string; cdp_ws_url: string }>(
      env,
      'browsers',
      'create',
      '--profile-name',
      'demo-login',
      '--save-changes',
    );
    console.log(
      `(session 1 opens ${siteUrl}/login: "${await titleAt(first.cdp_ws_url, '/login')}")`,
    );
    xb(env, 'browsers', 'delete', first.session_id);
    xb(env, 'profiles', 'get', 'demo-login');
    const next = xbJson<{ session_id: string; cdp_ws_url: string }>(
      env,
      'browsers',
      'create',
      '--profile-name',
      'demo-login',
    );
    console.log(
      `(session 2, never logged in, opens ${siteUrl}/: "${await titleAt(next.cdp_ws_url, '/')}")`,
    );
    xb(env, 'browsers', 'delete', next.session_id);
    xb(env, 'profiles', 'download', 'demo-login', '-o', 'out/demo-login.tar');
    xb(env, 'profiles', 'delete', 'demo-login');
  } finally {
    site.close();
  }
}

/**
 * A person's side: `xb browsers live` prints the session's live view link; a browser of their own
 * (a separate headless Chromium here) opens it, watches the session, and types into it through
 * the view. The page with the session on it is saved as out/live-view.png.
 */
async function liveViewDemo(env: NodeJS.ProcessEnv, browser: string, page: Page): Promise<void> {
  console.log(`$ xb browsers live ${browser}`);
  const printed = spawnSync(process.execPath, [XB, 'browsers', 'live', browser], {
    env,
    encoding: 'utf8',
  });
  if (printed.status !== 0) throw new Error(`xb browsers live exited ${printed.status}`);
  const url = printed.stdout.trim();
  console.log(withoutJwt(url));
  const person = await launchViewer();

  try {
    const view = await person.newPage({ viewport: { width: 1024, height: 720 } });
    await view.goto(url);
    await view.waitForFunction(() => Number(document.getElementById('screen')?.dataset.frames) > 0);
    // The session (1024 × 600) is drawn under the page's bar, scaled to fit and centred: the
    // point (300, 200) of the session, in its text box, is found on the view from the stage.
    const stage = await view.evaluate(() => {
      const box = (document.getElementById('stage') as HTMLElement).getBoundingClientRect();
      return { left: box.left, top: box.top, width: box.width, height: box.height };
    });
    const scale = Math.min(stage.width / 1024, stage.height / 600);
    await view.mouse.click(
      stage.left + (stage.width - 1024 * scale) / 2 + 300 * scale,
      stage.top + (stage.height - 600 * scale) / 2 + 200 * scale,
    );
    await view.keyboard.press('Control+End');
    await view.keyboard.press('Enter');
    const typed = 'typed by a person in the live view';
    await view.keyboard.type(typed);
    // The picture is taken once the session's page holds every key typed (each goes to the
    // session over the view's socket) and the view has drawn the session's screen since.
    await page.waitForFunction(
      (text) => (document.getElementById('box') as HTMLTextAreaElement).value.endsWith(text),
      typed,
    );
    const frames = await view.evaluate(() =>
      Number(document.getElementById('screen')?.dataset.frames),
    );
    // A frame drawn after that shows it; the screen sends one when anything on it changes (the
    // caret blinks): if none comes in 5 s, the last one drawn already did.
    await view
      .waitForFunction(
        (seen) => Number(document.getElementById('screen')?.dataset.frames) > seen,
        frames,
        { timeout: 5000 },
      )
      .catch(() => undefined);
    await view.screenshot({ path: 'out/live-view.png' });
    console.log('(a person opened the link, typed into the session through it: out/live-view.png)');
  } finally {
    await person.close();
  }
}

/** Like xbJson, without echoing (for polling). */
function xbJsonQuiet<T>(env: NodeJS.ProcessEnv, ...args: string[]): T {
  const result = spawnSync(process.execPath, [XB, ...args, '--json'], { env, encoding: 'utf8' });
  return JSON.parse(result.stdout) as T;
}

console.log(
  '\nSaved in out/: openapi.json, screenshot.png and replay.mp4 (the typed text, from real Chromium), live-view.png (the session in its live view), extension.zip, demo-login.tar (the saved profile)',
);
console.log(`
What next:
  bash scripts/install-bins.sh       put xb and xb-server on the PATH (with the Node.js they need)
  xb-server                          start the server for yourself: it says how to reach it
  xb browsers create --name mine     a browser of your own, then: xb browsers live mine --open
  eval "$(xb completion bash)"       tab-completion, running browsers' names included
Read: README.md (what there is), docs/operating.md (running it for a team: TLS, systemd,
tokens, PostgreSQL), docs/kernel-migration.md (coming from Kernel), docs/reference.md (every call).`);
