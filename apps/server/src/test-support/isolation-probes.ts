import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import type { CdpSocket } from './cdp-socket.js';

/** What the isolation tests look at from the host: pages over raw DevTools, sockets, X11. */

/** Evaluates an expression in a page session over raw DevTools, promises awaited. */
export async function evaluate<T>(cdp: CdpSocket, session: string, expression: string): Promise<T> {
  const { result, exceptionDetails } = await cdp.send<{
    result: { value: T };
    exceptionDetails?: { exception?: { description?: string } };
  }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, session);
  if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? 'threw');
  return result.value;
}

/** Navigates a page session and waits for the load to finish. */
export async function navigate(cdp: CdpSocket, session: string, url: string): Promise<void> {
  await cdp.send('Page.enable', {}, session);
  const { errorText } = await cdp.send<{ errorText?: string }>('Page.navigate', { url }, session);
  if (errorText) throw new Error(errorText);
  for (let attempt = 0; attempt < 100; attempt++) {
    // A page between two documents has no context to ask yet: asked again.
    const state = await evaluate<string>(cdp, session, 'document.readyState').catch(() => '');
    if (state === 'complete') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Lets the browser download to `path` (as the browser sees it), reporting progress. */
export async function allowDownloads(cdp: CdpSocket, path: string): Promise<void> {
  cdp.events.length = 0;
  await cdp.send('Browser.setDownloadBehavior', {
    behavior: 'allow',
    downloadPath: path,
    eventsEnabled: true,
  });
}

/** Inodes of the sockets a process holds open. */
export function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode) inodes.add(inode);
    }
  } catch {
    // It ended while it was read.
  }
  return inodes;
}

/**
 * Inodes of the listening sockets of a network namespace (`/proc/<pid>/net` of a process in it;
 * the host's by default): TCP and UDP over IPv4 and IPv6, and UNIX ones.
 */
export function listeningInodes(net = '/proc/net'): Map<string, string> {
  const listening = new Map<string, string>();
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`${net}/${table}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // State 0A is LISTEN.
      if (fields[3] === '0A') listening.set(fields[9] as string, `${table} ${fields[1]}`);
    }
  }
  for (const table of ['udp', 'udp6']) {
    for (const line of readFileSync(`${net}/${table}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[9]) listening.set(fields[9], `${table} ${fields[1]}`);
    }
  }
  for (const line of readFileSync(`${net}/unix`, 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // __SO_ACCEPTCON in the flags: a socket that accepts connections.
    if (fields[3] && (Number.parseInt(fields[3], 16) & 0x10000) !== 0)
      listening.set(fields[6] as string, `unix ${fields[7] ?? ''}`);
  }
  return listening;
}

/** Triggers a download of `name` in a page session by clicking a link to a data URL. */
export async function download(cdp: CdpSocket, session: string, name: string): Promise<void> {
  await evaluate(
    cdp,
    session,
    `(() => { const a = document.createElement('a'); a.href = 'data:text/plain,stolen';
      a.download = ${JSON.stringify(name)}; document.body.append(a); a.click(); return true; })()`,
  );
}

/** Waits for a download the client asked to hear about (`eventsEnabled`) to end; its state. */
export async function downloadEnd(cdp: CdpSocket): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const end = cdp.events.find(
      (event) =>
        event.method === 'Browser.downloadProgress' &&
        ['completed', 'canceled'].includes(event.params.state as string),
    );
    if (end) return end.params.state as string;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return 'never ended';
}

/** The same handshake, run by a Node of its own in the network namespace nsenter's `namespace` joins. */
export async function x11HandshakeIn(
  namespace: readonly string[],
  address: string,
  cookie: Buffer | undefined,
): Promise<string> {
  const script = `
    const { connect } = require('node:net');
    const address = Buffer.from(process.argv[1], 'hex').toString();
    const cookie = process.argv[2] ? Buffer.from(process.argv[2], 'hex') : undefined;
    const pad = (b) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
    const name = Buffer.from(cookie ? 'MIT-MAGIC-COOKIE-1' : '');
    const data = cookie ?? Buffer.alloc(0);
    const header = Buffer.alloc(12);
    header.write('l', 0); header.writeUInt16LE(11, 2); header.writeUInt16LE(name.length, 6);
    header.writeUInt16LE(data.length, 8);
    const socket = connect({ path: address }, () => socket.write(Buffer.concat([header, pad(name), pad(data)])));
    socket.once('data', (reply) => { console.log(reply[0] === 1 ? 'accepted' : 'refused'); socket.destroy(); });`;
  const { stdout } = await promisify(execFile)('/usr/bin/nsenter', [
    ...namespace,
    '--',
    process.execPath,
    '-e',
    script,
    Buffer.from(address).toString('hex'),
    cookie ? cookie.toString('hex') : '',
  ]);
  return stdout.trim();
}

/** Opens an X11 connection with `cookie` (MIT-MAGIC-COOKIE-1) or none; what the server says. */
export function x11Handshake(address: string, cookie: Buffer | undefined): Promise<string> {
  const pad = (bytes: Buffer) => Buffer.concat([bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4)]);
  const name = Buffer.from(cookie ? 'MIT-MAGIC-COOKIE-1' : '');
  const data = cookie ?? Buffer.alloc(0);
  const header = Buffer.alloc(12);
  header.write('l', 0);
  header.writeUInt16LE(11, 2);
  header.writeUInt16LE(0, 4);
  header.writeUInt16LE(name.length, 6);
  header.writeUInt16LE(data.length, 8);
  return new Promise((resolve, reject) => {
    const socket = connect({ path: address }, () =>
      socket.write(Buffer.concat([header, pad(name), pad(data)])),
    );
    socket.once('data', (reply: Buffer) => {
      socket.destroy();
      resolve(reply[0] === 1 ? 'accepted' : 'refused');
    });
    socket.once('error', reject);
  });
}
