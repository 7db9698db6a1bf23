import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';

/** An IPv4 address and port as /proc/net/tcp writes them: `0100007F:1F90`. */
function procAddress(address: string, port: number): string {
  const bytes = address.split('.').map(Number);
  if (bytes.length !== 4 || bytes.some((byte) => !(byte >= 0 && byte <= 255))) return '';
  const hex = bytes
    .reverse()
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');
  return `${hex}:${port.toString(16).padStart(4, '0')}`.toUpperCase();
}

/**
 * The uid that owns the other end of a loopback TCP connection this server accepted, read from
 * the kernel's socket table (`/proc/net/tcp`), or undefined when it is not found there. Both ends
 * live on this host, so the table names the client socket: its local address is our peer's.
 */
export async function loopbackPeerUid(socket: Socket): Promise<number | undefined> {
  const { remoteAddress, remotePort, localAddress, localPort } = socket;
  if (!remoteAddress || !remotePort || !localAddress || !localPort) return undefined;
  const peer = procAddress(remoteAddress.replace(/^::ffff:/, ''), remotePort);
  const us = procAddress(localAddress.replace(/^::ffff:/, ''), localPort);
  if (!peer || !us) return undefined;
  const table = await readFile('/proc/net/tcp', 'utf8');
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // sl, local_address, rem_address, st, tx:rx, tr:when, retrnsmt, uid, …
    if (fields[1] === peer && fields[2] === us) return Number(fields[7]);
  }
  return undefined;
}
