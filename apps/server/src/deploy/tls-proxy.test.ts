import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server.js';
import { findExecutable } from '../system/executables.js';
import { testConfig } from '../test-support/servers.js';

const TOKEN = 'tls-proxy-test-token';
const NGINX_CONF = new URL('../../deploy/nginx.conf', import.meta.url).pathname;
const TLS_CLIENT = new URL('../test-support/tls-client.ts', import.meta.url).pathname;
/** How long the idle stream is held with nothing to say: past nginx's (shortened) read time-out. */
const IDLE_SECONDS = 65;
/** The read time-out the test gives nginx, shorter than the idle wait: keepalives hold it. */
const READ_TIMEOUT_SECONDS = 30;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function acceptsConnections(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (isOpen) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

/** Runs the TLS client in a process of its own, trusting the test's certificate. */
async function tlsClient(mode: string, baseUrl: string, certificate: string): Promise<unknown> {
  const child = spawn(process.execPath, [TLS_CLIENT, mode], {
    env: {
      ...process.env,
      XB_BASE_URL: baseUrl,
      XB_TOKEN: TOKEN,
      NODE_EXTRA_CA_CERTS: certificate,
      IDLE_SECONDS: String(IDLE_SECONDS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`the TLS client (${mode}) exited ${code}: ${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
}

const nginx =
  findExecutable('nginx') ??
  ['/usr/sbin/nginx'].find((path) => {
    try {
      execFileSync(path, ['-v'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });

describe('behind nginx with TLS, as docs/operating.md sets it up', () => {
  let folder: string;
  let server: RunningServer;
  let proxy: ChildProcess;
  let publicUrl: string;
  let certificate: string;
  let silent: HttpServer;
  let silentPort: number;

  beforeAll(async () => {
    if (!nginx) throw new Error('nginx is not installed (Debian: apt-get install nginx-light)');
    folder = mkdtempSync(join(tmpdir(), 'xb-tls-'));
    certificate = join(folder, 'cert.pem');
    const key = join(folder, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        key,
        '-out',
        certificate,
      ],
      { stdio: 'ignore' },
    );
    // The silent upstream of the control: an event stream that never says anything.
    silent = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(folder, temp));
    // nginx takes fixed ports: one another process took since they were free fails its start
    // (it exits with no pid file); the setup then goes again on new ports.
    for (let attempt = 1; ; attempt++) {
      if (await startBehindNginx(key)) break;
      await server.close();
      if (attempt === 5) throw new Error('nginx found its ports taken 5 times');
    }
  }, 120_000);

  /** The server, then nginx in front of it on free ports; false when nginx could not bind them. */
  async function startBehindNginx(key: string): Promise<boolean> {
    const port = await freePort();
    publicUrl = `https://localhost:${port}`;
    server = await startServer(
      testConfig({
        XB_ALLOW_NETWORKS: '127.0.0.1/32',
        XB_DATA_DIR: join(folder, 'data'),
        XB_PORT: '0',
        XB_TOKENS: TOKEN,
        XB_PUBLIC_URL: publicUrl,
      }),
      pino({ level: 'silent' }),
    );
    // The README's site file, with this test's name, port, certificate and upstream put in.
    const site = (listenPort: number, upstream: string) =>
      readFileSync(NGINX_CONF, 'utf8')
        .replace('listen 443 ssl;', `listen 127.0.0.1:${listenPort} ssl;`)
        .replace('server_name browsers.example.com;', 'server_name localhost;')
        .replace('/etc/ssl/xb/fullchain.pem', certificate)
        .replace('/etc/ssl/xb/privkey.pem', key)
        .replace('proxy_pass http://127.0.0.1:8080;', `proxy_pass ${upstream};`)
        .replace('proxy_read_timeout 1h;', `proxy_read_timeout ${READ_TIMEOUT_SECONDS}s;`);
    const served = site(port, server.url);
    expect(served).toContain(`proxy_pass ${server.url};`);
    // The control: the same site in front of the silent stream.
    silentPort = await freePort();
    const control = site(silentPort, `http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    writeFileSync(
      join(folder, 'xb.conf'),
      `${served}\n${control.slice(control.indexOf('server {'))}`,
    );
    const pidFile = join(folder, 'nginx.pid');
    rmSync(pidFile, { force: true });
    writeFileSync(
      join(folder, 'nginx.conf'),
      `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${pidFile};
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  include ${folder}/xb.conf;
}
`,
    );
    proxy = spawn(
      nginx as string,
      ['-p', folder, '-c', join(folder, 'nginx.conf'), '-g', 'daemon off;'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    // nginx writes its pid file once it holds its ports; one that cannot bind them exits.
    const exited = once(proxy, 'exit').then(() => 'exited' as const);
    const deadline = Date.now() + 10_000;
    while (!existsSync(pidFile)) {
      if (Date.now() > deadline) throw new Error('nginx did not start in 10 s');
      const waited = new Promise<'waiting'>((resolve) => setTimeout(resolve, 50, 'waiting'));
      if ((await Promise.race([exited, waited])) === 'exited') return false;
    }
    await acceptsConnections(port);
    await acceptsConnections(silentPort);
    return true;
  }

  afterAll(async () => {
    if (proxy && proxy.exitCode === null) {
      proxy.kill('SIGTERM');
      await once(proxy, 'exit');
    }
    await server?.close();
    silent?.closeAllConnections();
    silent?.close();
  });

  it('drives a session through wss:// with Playwright and through https:// with the client', async () => {
    const seen = (await tlsClient('drive', publicUrl, certificate)) as {
      cdpUrl: string;
      title: string;
      typed: string;
      pngBytes: number;
    };
    expect(seen.cdpUrl.startsWith(`wss://localhost:${new URL(publicUrl).port}/browsers/`)).toBe(
      true,
    );
    expect(seen.title).toBe('through TLS');
    expect(seen.typed).toBe('héllo 世界');
    expect(seen.pngBytes).toBeGreaterThan(1_000);
  }, 60_000);

  it(`keeps an idle event stream open ${IDLE_SECONDS} s past a ${READ_TIMEOUT_SECONDS} s read time-out, by its keepalives`, async () => {
    // The control, at the same time: without keepalives the same site cuts a stream at its
    // read time-out.
    const cut = silentStreamLifetime(silentPort, certificate);
    const { seen } = (await tlsClient('idle-stream', publicUrl, certificate)) as {
      seen?: { event: { type: string; path?: string }; afterMs: number };
    };
    // The first event of the write (a write goes through a partial file renamed into place).
    expect(seen?.event).toMatchObject({
      type: 'CREATE',
      path: expect.stringMatching(/^\/home\/browser\/Downloads\//),
    });
    expect(seen?.afterMs).toBeGreaterThanOrEqual(IDLE_SECONDS * 1000);
    const cutAfterMs = await cut;
    expect(cutAfterMs).toBeGreaterThanOrEqual((READ_TIMEOUT_SECONDS - 1) * 1000);
    expect(cutAfterMs).toBeLessThan((READ_TIMEOUT_SECONDS + 10) * 1000);
  }, 120_000);
});

/** Opens a stream through the proxy's control site and resolves to how long it lasted, in ms. */
function silentStreamLifetime(port: number, certificate: string): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const call = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/events',
        servername: 'localhost',
        ca: readFileSync(certificate),
      },
      (response) => {
        response.resume();
        response.on('error', () => {}); // a cut shows as an aborted response: its close is what counts
        response.on('close', () => resolve(Date.now() - started));
      },
    );
    call.on('error', reject);
    call.end();
  });
}
