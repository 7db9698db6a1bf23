import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/**
 * A host of the test's own, in a network namespace joined to this one by a veth pair: it has a
 * public-looking address (`198.51.100.x`, in a documentation block this machine routes nowhere
 * else, routed to it alone) and a private one (`10.77.x.2`), both of an `x` no other far host on
 * this machine uses (test files and runs may overlap), and runs an HTTP server on port 8080 at both (`/` says
 * "far ok", `/redirect?to=URL` redirects), a UDP counter on port 9999 (`/udp` says how many
 * datagrams came), and a DNS server on port 53 answering `A` queries from `names` (`/dns` lists
 * the names it was asked, in order).
 */
export interface FarHost {
  readonly publicAddress: string;
  readonly privateAddress: string;
  /** A public-looking address (`203.0.113.x`) of this host itself, on its end of the link. */
  readonly hostAddress: string;
  close(): void;
}

/** HTTPS sites a far host serves on port 443: a page per host name, under one certificate. */
export interface FarSites {
  readonly cert: string;
  readonly key: string;
  /** Host name → the HTML it serves at every path. */
  readonly pages: Readonly<Record<string, string>>;
}

/** The far host's program: HTTP, UDP counter and a DNS server of fixed names. */
const FAR_PROGRAM = `
const http = require('node:http');
const dgram = require('node:dgram');
const names = JSON.parse(process.argv[1]);
const sites = process.argv[2] ? JSON.parse(process.argv[2]) : undefined;
if (sites) {
  require('node:https').createServer({ cert: sites.cert, key: sites.key }, (request, response) => {
    const host = String(request.headers.host ?? '').replace(/:\\d+$/, '').toLowerCase();
    const page = sites.pages[host];
    response.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page ?? '<p>no such site</p>');
  }).listen(443, '0.0.0.0');
}
let datagrams = 0;
const asked = [];
http.createServer((request, response) => {
  const url = new URL(request.url, 'http://far');
  if (url.pathname === '/redirect') { response.writeHead(302, { location: url.searchParams.get('to') }); return response.end(); }
  if (url.pathname === '/udp') return response.end(String(datagrams));
  if (url.pathname === '/dns') return response.end(JSON.stringify(asked));
  response.setHeader('content-type', 'text/html');
  response.end('<p>far ok</p>');
}).listen(8080, '0.0.0.0');
const counter = dgram.createSocket('udp4');
counter.on('message', () => { datagrams++; });
counter.bind(9999, '0.0.0.0');
const dns = dgram.createSocket('udp4');
dns.on('message', (query, from) => {
  let offset = 12; const labels = [];
  while (query[offset] > 0) { labels.push(query.subarray(offset + 1, offset + 1 + query[offset]).toString()); offset += query[offset] + 1; }
  const question = query.subarray(12, offset + 5);
  const type = query.readUInt16BE(offset + 1);
  const address = names[labels.join('.').toLowerCase()];
  if (asked.length < 10000) asked.push(labels.join('.').toLowerCase());
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(address ? 0x8180 : 0x8183, 2);
  header.writeUInt16BE(1, 4);
  const answers = address && type === 1 ? 1 : 0;
  header.writeUInt16BE(answers, 6);
  const parts = [header, question];
  if (answers) {
    const answer = Buffer.alloc(16);
    answer.writeUInt16BE(0xc00c, 0); answer.writeUInt16BE(1, 2); answer.writeUInt16BE(1, 4);
    answer.writeUInt32BE(5, 6); answer.writeUInt16BE(4, 10);
    address.split('.').forEach((octet, index) => { answer[12 + index] = Number(octet); });
    parts.push(answer);
  }
  dns.send(Buffer.concat(parts), from.port, from.address);
});
dns.bind(53, '0.0.0.0', () => console.log('ready'));
`;

/** An `x` (2–254) whose addresses no route of this machine names yet. */
function freeOctet(): number {
  const routes = execFileSync('/usr/sbin/ip', ['-4', 'route', 'show', 'table', 'all'], {
    encoding: 'utf8',
  });
  for (let tries = 0; tries < 100; tries++) {
    const octet = 2 + ((randomBytes(1)[0] ?? 0) % 253);
    if (!routes.includes(`10.77.${octet}.`) && !routes.includes(`198.51.100.${octet} `))
      return octet;
  }
  throw new Error('no free far-host address in 10.77.0.0/16');
}

/**
 * Starts a far host; `names` gives the DNS names it answers (name → IPv4 address), from its own
 * addresses.
 */
export async function startFarHost(
  names: (far: {
    publicAddress: string;
    privateAddress: string;
  }) => Record<string, string> = () => ({}),
  https?: FarSites,
): Promise<FarHost> {
  // The octet is looked for, then taken: another test's far host may take it in between (its
  // route is then there, and ours fails): another octet.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startFarHostOnce(names, https);
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
}

async function startFarHostOnce(
  names: (far: { publicAddress: string; privateAddress: string }) => Record<string, string>,
  https: FarSites | undefined,
): Promise<FarHost> {
  const id = randomBytes(2).toString('hex');
  const namespace = `xbt-far-${id}`;
  const hostSide = `xbtf${id}`;
  const octet = freeOctet();
  const privateBlock = `10.77.${octet}`;
  const publicAddress = `198.51.100.${octet}`;
  const privateAddress = `${privateBlock}.2`;
  const hostAddress = `203.0.113.${octet}`;
  const ip = (...args: string[]) => execFileSync('/usr/sbin/ip', args, { stdio: 'pipe' });
  let child: ChildProcess | undefined;
  const close = () => {
    if (child?.pid !== undefined && child.exitCode === null) child.kill('SIGKILL');
    try {
      ip('netns', 'delete', namespace);
    } catch {
      // Never made.
    }
    try {
      ip('link', 'delete', hostSide);
    } catch {
      // Gone with the namespace.
    }
  };
  try {
    ip('netns', 'add', namespace);
    ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace);
    ip('addr', 'add', `${privateBlock}.1/24`, 'dev', hostSide);
    ip('addr', 'add', `${hostAddress}/32`, 'dev', hostSide);
    ip('link', 'set', hostSide, 'up');
    ip('-n', namespace, 'link', 'set', 'lo', 'up');
    ip('-n', namespace, 'addr', 'add', `${publicAddress}/32`, 'dev', 'eth0');
    ip('-n', namespace, 'addr', 'add', `${privateAddress}/24`, 'dev', 'eth0');
    ip('-n', namespace, 'link', 'set', 'eth0', 'up');
    ip('-n', namespace, 'route', 'add', 'default', 'via', `${privateBlock}.1`);
    ip('route', 'add', `${publicAddress}/32`, 'via', privateAddress, 'dev', hostSide);
    child = spawn(
      '/usr/bin/nsenter',
      [
        `--net=/run/netns/${namespace}`,
        '--',
        process.execPath,
        '-e',
        FAR_PROGRAM,
        JSON.stringify(names({ publicAddress, privateAddress })),
        ...(https ? [JSON.stringify(https)] : []),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    await Promise.race([
      once(lines, 'line'),
      once(child, 'exit').then(() => {
        throw new Error('the far host exited at start');
      }),
    ]);
  } catch (error) {
    close();
    throw error;
  }
  return { publicAddress, privateAddress, hostAddress, close };
}
