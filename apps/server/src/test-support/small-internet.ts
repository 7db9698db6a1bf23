// Imports end in .ts: the demo (scripts/demo.ts) runs this file under plain Node too.
import dgram from 'node:dgram';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type FarHost, startFarHost } from './far-host.ts';
import { makeTestCa, type TestCa } from './test-ca.ts';

/**
 * A small internet on this machine, for tests and the demo: HTTPS sites under the test domain
 * (`shop.example.test`, …) served on port 443 of a far host (a network namespace of the run's
 * own, at a public-looking address), with certificates of a test CA, and a DNS server on this
 * host's loopback (a port of its own) that passes the test domain's queries to the far host's
 * DNS server and every other to the host's own resolvers. The server under test is told of them as an operator tells it of a
 * company's resolver and CA: `XB_SESSION_NAMESERVERS` and `XB_SESSION_CA_FILE` (`env`). Sessions
 * then open `https://shop.example.test/` by name, as they would a real site. Needs root (the
 * namespace).
 */
export interface SmallInternet {
  /** The settings that point a server at it. */
  readonly env: { readonly XB_SESSION_NAMESERVERS: string; readonly XB_SESSION_CA_FILE: string };
  /** The sites' address. */
  readonly address: string;
  /** The names the DNS server was asked, in order (at most 10,000). */
  readonly asked: readonly string[];
  close(): Promise<void>;
}

/** The domain the sites live under. */
export const TEST_DOMAIN = 'example.test';

export async function startSmallInternet(
  pages: Readonly<Record<string, string>>,
): Promise<SmallInternet> {
  const names = Object.keys(pages).map((name) => name.toLowerCase());
  let ca: TestCa | undefined;
  let far: FarHost | undefined;
  const dns = dgram.createSocket('udp4');
  try {
    ca = makeTestCa(names);
    // The far host's own DNS server answers the sites' names (with its public address).
    far = await startFarHost(
      ({ publicAddress }) => Object.fromEntries(names.map((name) => [name, publicAddress])),
      { cert: ca.cert, key: ca.key, pages },
    );
    const address = far.publicAddress;
    const sitesResolver = [far.privateAddress];
    const asked: string[] = [];
    const upstream = hostResolvers();
    dns.on('message', (query, from) => {
      const name = questionName(query);
      if (name === undefined) return;
      if (asked.length < 10_000) asked.push(name);
      const isTestName = name === TEST_DOMAIN || name.endsWith(`.${TEST_DOMAIN}`);
      forward(query, isTestName ? sitesResolver : upstream).then(
        (reply) => dns.send(reply, from.port, from.address),
        () => undefined, // no answer: the asker's own time-out says so
      );
    });
    dns.bind(0, '127.0.0.1');
    await once(dns, 'listening');
    const port = (dns.address() as AddressInfo).port;
    const made = { ca, far };
    return {
      env: {
        XB_SESSION_NAMESERVERS: `127.0.0.1:${port}`,
        XB_SESSION_CA_FILE: ca.caFile,
      },
      address,
      asked,
      async close() {
        dns.close();
        made.far.close();
        made.ca.remove();
      },
    };
  } catch (error) {
    dns.close();
    far?.close();
    ca?.remove();
    throw error;
  }
}

/** The host's IPv4 resolvers, from /etc/resolv.conf. */
function hostResolvers(): string[] {
  let text = '';
  try {
    text = readFileSync('/etc/resolv.conf', 'utf8');
  } catch {
    // None: every other name goes unanswered.
  }
  return [...text.matchAll(/^\s*nameserver\s+(\d+\.\d+\.\d+\.\d+)\s*$/gm)].map(
    (match) => match[1] as string,
  );
}

/** The name a query asks about, lower-cased; undefined when it does not parse. */
function questionName(query: Buffer): string | undefined {
  if (query.length < 17) return undefined;
  const labels: string[] = [];
  let offset = 12;
  while (offset < query.length && (query[offset] ?? 0) > 0) {
    const length = query[offset] as number;
    if (length > 63 || offset + 1 + length > query.length) return undefined;
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('latin1'));
    offset += length + 1;
  }
  return offset + 5 <= query.length ? labels.join('.').toLowerCase() : undefined;
}

/** Asks `resolvers` in turn (2 s each, port 53); the first answer. */
async function forward(query: Buffer, resolvers: readonly string[]): Promise<Buffer> {
  for (const resolver of resolvers) {
    const socket = dgram.createSocket('udp4');
    try {
      const reply = await new Promise<Buffer>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no answer')), 2_000);
        socket.on('message', (message) => {
          if (message.length >= 2 && message.readUInt16BE(0) === query.readUInt16BE(0)) {
            clearTimeout(timer);
            resolve(message);
          }
        });
        socket.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        socket.send(query, 53, resolver);
      });
      return reply;
    } catch {
      // The next one.
    } finally {
      socket.close();
    }
  }
  throw new Error('no resolver answered');
}
