import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  Agent,
  type ClientRequest,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createIdGenerator, nodeTagOf, refusals } from '@x/service-kernel';
import { API_VERSION, HEADERS } from '@x/types';
import type { Logger } from 'pino';
import { refuseUpgrade } from '../http/cdp-proxy.js';
import type { ClusterNode } from './cluster-node.js';

/**
 * The header a node's call to another carries:
 * `<from>.<to>.<unix seconds>.<nonce>.<client>.<body digest>.<hmac>`. The HMAC (the cluster's
 * hop secret) covers every field, the method and the path; `to` is the node it is for, the nonce
 * is taken once, and the digest is the body's SHA-256 (base64url), or `-` for a passed API call,
 * whose body is streamed and whose caller's own credential the receiving node checks.
 */
export const HOP_HEADER = 'x-xb-node-hop';

/** How old a hop's signature may be. */
const HOP_MAX_AGE_SECONDS = 60;

/** How far before this node's start a hop may have been signed (clocks of hosts apart). */
const START_SLACK_SECONDS = 5;

/** The digest field of a hop whose body is streamed (not bound by the signature). */
const STREAMED = '-';

/** Most nonces a node remembers (the hops of the last two minutes); past it, hops are refused. */
const MAX_NONCES = 200_000;

/** The SHA-256 of a body, as a hop names it. */
function bodyDigest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/** Largest create body a node reads to place it (the API takes far smaller ones). */
const MAX_CREATE_BYTES = 1024 * 1024;

/** How long a node waits to connect to another before it answers 502. */
const CONNECT_TIMEOUT_MS = 2_000;

/** Path of anything of one session: `/browsers/{id}` and below. */
const SESSION_PATH = /^\/browsers\/([^/?]{1,256})(?:\/|$)/;

/** Path of anything of one deployment or invocation: by id, and below. */
const RUN_PATH = /^\/(?:deployments|invocations)\/([^/?]{1,256})(?:\/|$)/;

/** Path of anything of one pool: `/browser_pools/{id or name}` and below. */
const POOL_PATH = /^\/browser_pools\/([^/?]{1,256})(?:\/|$)/;

/** Path of a pool's acquire, which the node it arrives at answers. */
const POOL_ACQUIRE_PATH = /^\/browser_pools\/[^/?]{1,256}\/acquire\/?$/;

/** Path of a node's drain, which that node answers (it alone knows what it runs). */
const NODE_DRAIN_PATH = /^\/org\/nodes\/([^/?]{1,256})\/drain\/?$/;

/** Most pools one node lists for a gathered list (each node's pools, every page). */
const MAX_GATHERED = 10_000;

/** Headers that belong to one connection, not to the call, and are not passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  HOP_HEADER,
]);

/** Request ids of the answers a node gives itself when it cannot pass a call on. */
const nextRequestId = createIdGenerator();

/** The address a call came from, kept by the forwarded call (`clientAddressOf`). */
const CLIENT_ADDRESS = Symbol('xb.clientAddress');

/** The node a forwarded call arrived at, kept by the forwarded call (`receivedByOf`). */
const RECEIVED_BY = Symbol('xb.receivedBy');

/** The body digest a verified hop was signed with, and its nonce (a node call's, not taken yet). */
const BODY_DIGEST = Symbol('xb.bodyDigest');

interface SignedBody {
  readonly digest: string;
  readonly nonce: string;
  readonly forgetAt: number;
}

/** Where the calls nodes make of each other (not the API's) go: answered only when signed. */
export const NODE_CALLS_PATH = '/_node/';

/** Largest body of a call between nodes (a browser's spec or record). */
const MAX_NODE_CALL_BYTES = 256 * 1024;

/** How long a call between nodes may take (a browser's start included). */
const NODE_CALL_MS = 60_000;

/** A call one node makes of another, as the other's handler reads it. */
export interface NodeCall {
  /** The node that made it (its tag, as its signature says). */
  readonly from: string;
  readonly method: string;
  /** Its path, below `/_node/`. */
  readonly path: string;
  readonly body: unknown;
  /** Aborts when the calling node gives up (its connection closes before the answer). */
  readonly signal: AbortSignal;
}

/** How a call between nodes is made beyond its request. */
export interface NodeCallOptions {
  /** Gives up on the call (the connection is closed: the other node hears it). */
  readonly signal?: AbortSignal;
  /** How long the call may take, NODE_CALL_MS unless said. */
  readonly timeoutMs?: number;
}

/** An answer to a call between nodes. */
export interface NodeAnswer {
  readonly status: number;
  readonly json?: unknown;
}

/** Answers the calls other nodes make of this one. */
export type NodeCallHandler = (call: NodeCall) => Promise<NodeAnswer>;

/**
 * Finds what a name names: the id of the open session (`browsers`) or the pool (`pools`) of
 * that name, when exactly one has it.
 */
export type NameResolver = (
  kind: 'browsers' | 'pools',
  name: string,
) => Promise<string | undefined>;

/** Finds the deployment that runs version `version` of app `app`, when exactly one does. */
export type AppResolver = (app: string, version: string) => Promise<string | undefined>;

/**
 * Passes the calls and WebSockets of sessions other nodes run to them: the owner is read from
 * the session's id (its node's tag), so no lookup is made; a name is looked up in the store.
 * Streams both ways as bytes, with back-pressure, nothing buffered: HTTP bodies (uploads, SSE,
 * downloads) are piped, a WebSocket is a byte tunnel once its upgrade is passed on. Each passed
 * call is signed with the nodes' shared secret and names the node it came from; a node never
 * passes on a call that another node passed to it, so no call loops. A new browser goes to the
 * least loaded node with room.
 */
export class Forwarder {
  readonly #node: ClusterNode;
  readonly #logger: Logger;
  readonly #resolveName: NameResolver;
  readonly #holds: (kind: 'browsers' | 'pools', name: string) => boolean;
  readonly #resolveApp: AppResolver;
  readonly #agent = new NodeAgent();
  /** The nonces of hops taken, with when each may be forgotten (unix seconds). */
  readonly #nonces = new Map<string, number>();
  /** When this node started (unix seconds): a hop signed before is refused (its nonce unknown). */
  readonly #startedAt = Math.floor(Date.now() / 1000);
  /** Answers other nodes' calls; set once the server's parts are made. */
  nodeCalls: NodeCallHandler | undefined;

  constructor(
    node: ClusterNode,
    resolve: {
      readonly name: NameResolver;
      readonly app: AppResolver;
      /** Whether this node holds what a name names (then no lookup is made). */
      readonly holds?: (kind: 'browsers' | 'pools', name: string) => boolean;
    },
    logger: Logger,
  ) {
    this.#node = node;
    this.#resolveName = resolve.name;
    this.#holds = resolve.holds ?? (() => false);
    this.#resolveApp = resolve.app;
    this.#logger = logger;
  }

  /**
   * Takes an HTTP call that is another node's (true), or leaves it to this one (false). A call
   * passed by another node is checked: a bad signature is 403, never served.
   */
  async request(incoming: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const hop = incoming.headers[HOP_HEADER];
    // Not joined yet (the moment it starts listening): it answers what it is asked.
    if (!this.#node.url && hop === undefined) return false;
    if (hop !== undefined) {
      if (!this.#verify(incoming, hop)) {
        sendError(response, 403, 'forbidden', 'A call passed between nodes with a bad signature.');
        return true;
      }
      if (!(incoming.url ?? '').startsWith(NODE_CALLS_PATH)) return false;
      await this.#answerNodeCall(incoming, response);
      return true;
    }
    // A call with no credential at all is refused here (401): it costs no other node anything.
    if (!hasCredential(incoming)) return false;
    // Alone in the cluster: nothing to pass on, but a pool of a lost node is on its way here.
    if (this.#isAlone()) return this.#isPoolMoving(incoming, response);
    const path = (incoming.url ?? '/').split('?')[0] as string;
    if (incoming.method === 'POST' && (path === '/browsers' || path === '/browsers/'))
      return this.#place(incoming, response);
    if (incoming.method === 'POST' && (path === '/invocations' || path === '/invocations/'))
      return this.#invoke(incoming, response);
    if (incoming.method === 'GET' && (path === '/browser_pools' || path === '/browser_pools/')) {
      await this.#gather(incoming, response);
      return true;
    }
    if (incoming.method === 'POST' && NODE_DRAIN_PATH.test(path))
      return this.#drainThere(incoming, response);
    // A pool's acquire is answered here, once its caller is known: this node's model asks the
    // pool's holder for a browser, and hands out one that runs here itself (no call back).
    if (incoming.method === 'POST' && POOL_ACQUIRE_PATH.test(path)) return false;
    const target = await this.#targetOf(incoming);
    if (target === 'moving') {
      sendPoolMoving(response);
      return true;
    }
    if (!target) return false;
    this.#pass(incoming, response, target);
    return true;
  }

  /**
   * Passes a drain to the node it names (true); this node answers one of its own, of a node it
   * does not know (404) or of a lost one (409).
   */
  #drainThere(incoming: IncomingMessage, response: ServerResponse): boolean {
    const tag = keyOf(NODE_DRAIN_PATH, incoming.url);
    const member = tag === undefined ? undefined : this.#node.member(tag);
    if (!member || member.id === this.#node.tag || member.state === 'lost') return false;
    this.#pass(incoming, response, new URL(member.url));
    return true;
  }

  /** Answers 503 for a pool of a lost node that has not moved yet (true); else leaves the call. */
  async #isPoolMoving(incoming: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const pool = keyOf(POOL_PATH, incoming.url);
    if (pool === undefined || this.#holds('pools', pool)) return false;
    const id = isId(pool, 'pool')
      ? pool
      : await this.#resolveName('pools', pool).catch(() => undefined);
    if (id === undefined || !this.#isOwnerLost(id)) return false;
    sendPoolMoving(response);
    return true;
  }

  /** Takes a WebSocket upgrade that is another node's (true), or leaves it to this one. */
  upgrade(incoming: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const hop = incoming.headers[HOP_HEADER];
    if (hop !== undefined) {
      if (this.#verify(incoming, hop)) return false;
      refuseUpgrade(socket, 401, 'A call passed between nodes with a bad signature.');
      return true;
    }
    if (this.#isAlone() || !hasCredential(incoming)) return false;
    // Session URLs name sessions by id: no lookup on the way of a WebSocket.
    const id = keyOf(SESSION_PATH, incoming.url);
    const owner = id === undefined ? undefined : this.#remoteOwner(id);
    if (!owner) return false;
    this.#tunnel(incoming, socket, head, owner);
    return true;
  }

  close(): void {
    this.#agent.destroy();
  }

  /**
   * Makes a call of node `tag` (signed, below `/_node/`): its answer, JSON read. Rejects when the
   * node is unknown, lost, or does not answer in time, or when `options.signal` aborts.
   */
  async callNode(
    tag: string,
    method: string,
    path: string,
    body: unknown,
    options: NodeCallOptions = {},
  ): Promise<NodeAnswer> {
    const { signal, timeoutMs = NODE_CALL_MS } = options;
    signal?.throwIfAborted();
    const member = this.#node.member(tag);
    if (!member || member.state === 'lost') throw new Error(`node ${tag} is not up`);
    const target = new URL(member.url);
    const fullPath = `${NODE_CALLS_PATH}${path}`;
    const bytes = Buffer.from(JSON.stringify(body ?? {}));
    const hop = this.signNodeCall(tag, method, fullPath, bytes);
    return new Promise((resolve, reject) => {
      const upstream = httpRequest({
        host: target.hostname,
        port: target.port,
        method,
        path: fullPath,
        headers: {
          'content-type': 'application/json',
          'content-length': String(bytes.length),
          [HOP_HEADER]: hop,
        },
        agent: this.#agent,
        signal,
      });
      const timer = setTimeout(
        () => upstream.destroy(new Error(`node ${tag} did not answer`)),
        timeoutMs,
      );
      upstream.once('close', () => clearTimeout(timer));
      upstream.once('response', (answer) => {
        readText(answer).then((text) => {
          let json: unknown;
          try {
            json = text === '' ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: answer.statusCode ?? 502, json });
        }, reject);
      });
      upstream.once('error', reject);
      upstream.end(bytes);
    });
  }

  /**
   * The hop header of a call between nodes: for node `to`, once, binding `body` (what `callNode`
   * sends).
   */
  signNodeCall(to: string, method: string, path: string, body: Buffer): string {
    return this.#hop(to, method, path, '', bodyDigest(body));
  }

  /** Answers a signed call another node made of this one (`callNode`). */
  async #answerNodeCall(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const read = await readBody(incoming, MAX_NODE_CALL_BYTES).catch(() => undefined);
    if (!read || read.isPartial) {
      incoming.resume();
      sendError(response, 413, 'payload_too_large', 'A call between nodes too large.');
      return;
    }
    // The signature names the body it was made for: another body is not that call. The call is
    // taken once.
    const signed = (incoming as unknown as Record<symbol, SignedBody | undefined>)[BODY_DIGEST];
    if (signed?.digest !== bodyDigest(read.bytes)) {
      sendError(
        response,
        403,
        'forbidden',
        'A call between nodes whose body is not the one signed.',
      );
      return;
    }
    if (!this.#takeNonce(signed.nonce, signed.forgetAt, Math.floor(Date.now() / 1000))) {
      sendError(response, 403, 'forbidden', 'A call between nodes made already.');
      return;
    }
    let body: unknown;
    try {
      body = read.bytes.length === 0 ? {} : JSON.parse(read.bytes.toString('utf8'));
    } catch {
      sendError(response, 400, 'bad_request', 'A call between nodes whose body is not JSON.');
      return;
    }
    const path = (incoming.url ?? '').slice(NODE_CALLS_PATH.length).split('?')[0] as string;
    // The calling node gave up when its connection closes before the answer is sent.
    const gaveUp = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) gaveUp.abort();
    });
    const call: NodeCall = {
      from: receivedByOf(incoming) ?? '',
      method: incoming.method ?? 'GET',
      path,
      body,
      signal: gaveUp.signal,
    };
    const answer = this.nodeCalls
      ? await this.nodeCalls(call).catch((error: unknown) => {
          this.#logger.error({ err: error, path }, 'a call from another node failed');
          return { status: 500, json: { code: 'internal_error', message: String(error) } };
        })
      : { status: 404, json: { code: 'not_found', message: 'No such call between nodes.' } };
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(answer.json === undefined ? '' : JSON.stringify(answer.json));
  }

  /** Whether no other node is up (or draining, its sessions still running). */
  #isAlone(): boolean {
    return !this.#node
      .members()
      .some((member) => member.id !== this.#node.tag && member.state !== 'lost');
  }

  /**
   * The node to pass a session's or a pool's call to, or undefined: this node answers it. A
   * pool is held by one node (its browsers run on any): the one that made it, until that node
   * is lost or leaves and another takes it (`moving` until then).
   */
  async #targetOf(incoming: IncomingMessage): Promise<URL | 'moving' | undefined> {
    const run = keyOf(RUN_PATH, incoming.url);
    if (run !== undefined) return this.#remoteOwner(run);
    const session = keyOf(SESSION_PATH, incoming.url);
    const pool = session === undefined ? keyOf(POOL_PATH, incoming.url) : undefined;
    const key = session ?? pool;
    if (key === undefined) return undefined;
    const kind = session === undefined ? 'pools' : 'browsers';
    if (!isId(key, kind === 'pools' ? 'pool' : 'br') && this.#holds(kind, key)) return undefined;
    const id = isId(key, kind === 'pools' ? 'pool' : 'br')
      ? key
      : await this.#resolveName(kind, key).catch(() => undefined);
    if (id === undefined) return undefined;
    if (kind === 'pools' && this.#isOwnerLost(id)) return 'moving';
    return this.#remoteOwner(id);
  }

  /**
   * Passes an invocation to the node that runs its app's deployment (the code is on that node's
   * disk): the body (a small JSON object) names the app and version, looked up in the store.
   * This node's own it serves itself, from the body it read.
   */
  async #invoke(incoming: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const body = await readBody(incoming, MAX_CREATE_BYTES);
    // Too large to be one: this node refuses it as it refuses any body too large.
    if (body.isPartial) {
      this.#pass(incoming, response, new URL(this.#node.url), body.bytes);
      return true;
    }
    const { bytes } = body;
    let owner: URL | undefined;
    try {
      const asked = JSON.parse(bytes.toString('utf8')) as {
        app_name?: unknown;
        version?: unknown;
      };
      if (typeof asked.app_name === 'string') {
        const version = typeof asked.version === 'string' ? asked.version : 'latest';
        const deployment = await this.#resolveApp(asked.app_name, version);
        if (deployment !== undefined) owner = this.#remoteOwner(deployment);
      }
    } catch {
      // Not JSON: this node answers it (400), as it answers any bad body.
    }
    if (!owner) return keepHere(incoming, bytes);
    const answer = await this.#send(incoming, owner, bytes).catch(() => undefined);
    if (!answer) {
      sendError(
        response,
        502,
        'bad_gateway',
        "The node that runs this app's deployment does not answer: try again shortly.",
        { 'retry-after': '2' },
      );
      return true;
    }
    relayAnswer(answer, response);
    return true;
  }

  /**
   * Answers a list of pools with every node's: each is held by one node, which alone
   * knows how many browsers it holds. Each node is asked for all of its own (filtered as asked),
   * then the page asked for is cut from them together, oldest first.
   */
  async #gather(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const asked = new URL(incoming.url ?? '/', 'http://node');
    // This node first, asked as the caller asked: it answers a bad query or token as it would
    // alone, and its answer's headers (request id, API version) are the gathered answer's.
    const own = await this.#send(incoming, new URL(this.#node.url), Buffer.alloc(0)).catch(
      () => undefined,
    );
    if (!own) {
      sendError(response, 502, 'bad_gateway', 'This node could not list its pools.');
      return;
    }
    if (own.statusCode !== 200) {
      relayAnswer(own, response);
      return;
    }
    own.resume();
    const offset = Number(asked.searchParams.get('offset') ?? '0');
    const limit = Number(asked.searchParams.get('limit') ?? '20');
    const nodes = this.#node.members().filter((member) => member.state !== 'lost');
    const lists = await Promise.all(
      nodes.map(async (member) => {
        const items: { id: string; created_at: string }[] = [];
        while (items.length < MAX_GATHERED) {
          const query = new URL(asked);
          query.searchParams.set('offset', String(items.length));
          query.searchParams.set('limit', '100');
          const answer = await this.#send(
            incoming,
            new URL(member.url),
            Buffer.alloc(0),
            `${query.pathname}${query.search}`,
          );
          const text = await readText(answer);
          if (answer.statusCode !== 200) return { status: answer.statusCode ?? 502, text };
          const page = JSON.parse(text) as { id: string; created_at: string }[];
          items.push(...page);
          if (answer.headers['x-has-more'] !== 'true' || page.length === 0) break;
        }
        return { status: 200, items };
      }),
    ).catch(() => undefined);
    if (!lists) {
      sendError(response, 502, 'bad_gateway', 'A node did not answer for its pools: try again.', {
        'retry-after': '2',
      });
      return;
    }
    // A refusal (a bad token, a bad query) is every node's: the first says it.
    const refused = lists.find((list) => list.status !== 200);
    if (refused && 'text' in refused) {
      response.writeHead(refused.status, { 'content-type': 'application/json' });
      response.end(refused.text);
      return;
    }
    const all = lists
      .flatMap((list) => ('items' in list ? (list.items ?? []) : []))
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    const page = all.slice(offset, offset + limit);
    const hasMore = offset + page.length < all.length;
    response.writeHead(200, {
      'content-type': 'application/json',
      [HEADERS.apiVersion]: String(own.headers[HEADERS.apiVersion] ?? API_VERSION),
      [HEADERS.requestId]: String(own.headers[HEADERS.requestId] ?? nextRequestId('req')),
      'x-has-more': String(hasMore),
      ...(hasMore ? { 'x-next-offset': String(offset + page.length) } : {}),
    });
    response.end(JSON.stringify(page));
  }

  /**
   * The address of the node that runs session `id`, when that is another node and it is not
   * lost; undefined otherwise (this node answers: from the store, the session ended).
   */
  #remoteOwner(id: string): URL | undefined {
    const owner = this.#node.ownerOf(id);
    if (owner === this.#node.tag) return undefined;
    const member = this.#node.member(owner);
    if (!member || member.state === 'lost') return undefined;
    return new URL(member.url);
  }

  /** Whether the node that holds `id` is lost. */
  #isOwnerLost(id: string): boolean {
    return this.#node.member(this.#node.ownerOf(id))?.state === 'lost';
  }

  /** A passed API call's hop header, for the node at `target` (its body streamed, unbound). */
  #sign(incoming: IncomingMessage, target: URL, path = incoming.url): string {
    const client = (clientAddressOf(incoming) ?? '').replaceAll('.', '-');
    return this.#hop(this.#tagAt(target), incoming.method ?? 'GET', path ?? '/', client, STREAMED);
  }

  #hop(to: string, method: string, path: string, client: string, digest: string): string {
    const at = Math.floor(Date.now() / 1000);
    const nonce = randomBytes(12).toString('base64url');
    const signed = `${this.#node.tag}.${to}.${at}.${nonce}.${client}.${digest}`;
    return `${signed}.${this.#mac(signed, method, path)}`;
  }

  /** The tag of the node at `target` (this one's own address included); '' for none known. */
  #tagAt(target: URL): string {
    const hostOf = (url: string) => URL.parse(url)?.host;
    if (this.#node.url && hostOf(this.#node.url) === target.host) return this.#node.tag;
    // A node that restarted at the same address left a lost row behind: the live one is meant.
    const members = this.#node.members().filter((each) => hostOf(each.url) === target.host);
    return (members.find((each) => each.state !== 'lost') ?? members[0])?.id ?? '';
  }

  #mac(signed: string, method: string | undefined, path: string | undefined): string {
    return createHmac('sha256', this.#node.hopSecret)
      .update(`${signed}\n${method}\n${path}`)
      .digest('base64url');
  }

  /**
   * Whether a passed call's signature holds: made by a node of the cluster for this node, within
   * the last minute and since this node started, with a nonce not seen before. Keeps the client's
   * address, the sending node and the body's digest it names.
   */
  #verify(incoming: IncomingMessage, header: string | string[]): boolean {
    if (typeof header !== 'string') return false;
    const parts = header.split('.');
    if (parts.length !== 7) return false;
    const [from, to, at, nonce, client, digest, mac] = parts as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const now = Math.floor(Date.now() / 1000);
    const signedAt = Number(at);
    const age = now - signedAt;
    if (!Number.isInteger(signedAt) || age > HOP_MAX_AGE_SECONDS || age < -HOP_MAX_AGE_SECONDS)
      return false;
    // Signed before this node started, its nonce could have been taken by the node it replaced
    // (a few seconds allowed for clocks apart).
    if (signedAt < this.#startedAt - START_SLACK_SECONDS || to !== this.#node.tag) return false;
    if (nonce.length < 16) return false;
    const expected = Buffer.from(
      this.#mac(`${from}.${to}.${at}.${nonce}.${client}.${digest}`, incoming.method, incoming.url),
    );
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    const isNodeCall = (incoming.url ?? '').startsWith(NODE_CALLS_PATH);
    // A node call's body is bound (its nonce is taken once the body is read and matches, so a
    // copy with another body takes nothing from the real call); a passed API call's is streamed.
    if (isNodeCall === (digest === STREAMED)) return false;
    if (this.#nonces.has(nonce)) return false;
    if (!isNodeCall && !this.#takeNonce(nonce, signedAt + HOP_MAX_AGE_SECONDS, now)) return false;
    const fields = incoming as unknown as Record<symbol, unknown>;
    fields[CLIENT_ADDRESS] = client.replaceAll('-', '.');
    fields[RECEIVED_BY] = from;
    fields[BODY_DIGEST] = { digest, nonce, forgetAt: signedAt + HOP_MAX_AGE_SECONDS };
    return true;
  }

  /** Takes a nonce once (false: seen already, or too many remembered to take one more). */
  #takeNonce(nonce: string, forgetAt: number, now: number): boolean {
    if (this.#nonces.has(nonce)) return false;
    if (this.#nonces.size >= MAX_NONCES) {
      for (const [seen, until] of this.#nonces) if (until < now) this.#nonces.delete(seen);
      if (this.#nonces.size >= MAX_NONCES) {
        this.#logger.warn('too many calls between nodes in a minute: one is refused');
        return false;
      }
    }
    this.#nonces.set(nonce, forgetAt);
    // Now and then the forgotten go (entries are in the order they came, near enough by time).
    if (this.#nonces.size % 1024 === 0) {
      for (const [seen, until] of this.#nonces) {
        if (until >= now) break;
        this.#nonces.delete(seen);
      }
    }
    return true;
  }

  #headersFor(incoming: IncomingMessage, target: URL, path = incoming.url): string[] {
    return [...callHeaders(incoming.rawHeaders), HOP_HEADER, this.#sign(incoming, target, path)];
  }

  /**
   * Passes a create to the best of `candidates`, and to the next when one answers 429 (it filled
   * up since this node last read it); this node among them is reached at its own address, as
   * the others are. The body (a small JSON object) is read first, so it can be sent again.
   */
  async #place(incoming: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const here = { id: this.#node.tag, url: this.#node.url };
    const read = await readBody(incoming, MAX_CREATE_BYTES);
    if (read.isPartial) {
      this.#pass(incoming, response, new URL(here.url), read.bytes);
      return true;
    }
    const body = read.bytes;
    // A browser of an invocation runs beside it: the invocation lists it, ends it with itself.
    let invocation: unknown;
    try {
      invocation = (JSON.parse(body.toString('utf8')) as { invocation_id?: unknown }).invocation_id;
    } catch {
      // Not JSON: this node answers it (400).
    }
    const placed: readonly { readonly id: string; readonly url: string }[] =
      typeof invocation === 'string'
        ? [
            {
              id: this.#node.ownerOf(invocation),
              url: (this.#remoteOwner(invocation) ?? new URL(here.url)).href,
            },
          ]
        : this.#node.placements();
    // Here first (this node counts its own browsers exactly), or nowhere has room: this node
    // answers (429 then, as any full server does).
    if (placed.length === 0 || placed[0]?.id === here.id) return keepHere(incoming, body);
    const candidates = placed;
    for (const [index, candidate] of candidates.entries()) {
      const isLast = index === candidates.length - 1;
      const answer = await this.#send(incoming, new URL(candidate.url), body).catch(
        (error: unknown) => {
          this.#logger.warn({ node: candidate.id, err: error }, 'a node did not take a create');
          return undefined;
        },
      );
      if (!answer) continue;
      // Full, or draining since this node last read it: the next candidate takes it.
      if ((answer.statusCode === 429 || answer.statusCode === 503) && !isLast) {
        answer.resume();
        continue;
      }
      relayAnswer(answer, response);
      return true;
    }
    sendError(response, 502, 'bad_gateway', 'No node with room answered: try again shortly.', {
      'retry-after': '2',
    });
    return true;
  }

  /**
   * Sends a call with a body read already (to `path`, else the call's own); resolves to the
   * answer, its body unread.
   */
  #send(
    incoming: IncomingMessage,
    target: URL,
    body: Buffer,
    path = incoming.url,
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const upstream = httpRequest({
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path,
        headers: [
          ...withoutLengths(this.#headersFor(incoming, target, path)),
          'content-length',
          String(body.length),
        ],
        agent: this.#agent,
      });
      // Only the connection is timed: a create may take long, and must not be left half-way.
      timeConnection(upstream);
      upstream.once('response', resolve);
      upstream.once('error', reject);
      upstream.end(body);
    });
  }

  /**
   * Passes an HTTP call on and its answer back, both streamed; `read`: what of the body was read
   * already, sent first.
   */
  #pass(incoming: IncomingMessage, response: ServerResponse, target: URL, read?: Buffer): void {
    passCall(
      { agent: this.#agent, logger: this.#logger },
      // Signed again if sent again: a nonce is taken once.
      { incoming, response, target, headers: () => this.#headersFor(incoming, target), read },
    );
  }

  /** Passes a WebSocket upgrade on, then tunnels its bytes both ways. */
  #tunnel(incoming: IncomingMessage, socket: Duplex, head: Buffer, target: URL): void {
    const upstream = connect({ host: target.hostname, port: Number(target.port) || 80 });
    upstream.setNoDelay(true);
    const timer = setTimeout(
      () => upstream.destroy(new Error('connect timeout')),
      CONNECT_TIMEOUT_MS,
    );
    let isConnected = false;
    upstream.once('connect', () => {
      clearTimeout(timer);
      isConnected = true;
      const headers = this.#headersFor(incoming, target);
      let text = `${incoming.method} ${incoming.url} HTTP/1.1\r\n`;
      for (let index = 0; index < headers.length; index += 2)
        text += `${headers[index]}: ${headers[index + 1]}\r\n`;
      text += 'Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n';
      upstream.write(text);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', (error) => {
      clearTimeout(timer);
      if (!isConnected) {
        this.#logger.warn(
          { node: target.host, err: error },
          'a node did not answer a passed WebSocket',
        );
        refuseUpgrade(
          socket,
          503,
          'The node that runs this session does not answer: try again shortly.',
        );
        return;
      }
      socket.destroy();
    });
    upstream.on('close', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    socket.on('close', () => upstream.destroy());
  }
}

/** How long a connection to another node is kept idle: well within a node's own 5 s. */
const IDLE_CONNECTION_MS = 2_000;

/**
 * Keeps connections to the other nodes alive between calls, and closes one idle for `idleMs`:
 * before the node at the other end closes it (Node's server, after 5 s), so a call rarely goes
 * out on a connection as it closes. (Node's own agent heeds a server's `Keep-Alive: timeout`
 * only when it has a time-out of its own, which would time out its calls too: an event stream or
 * an acquire's wait runs for minutes.)
 */
export class NodeAgent extends Agent {
  readonly #idleMs: number;

  constructor(idleMs = IDLE_CONNECTION_MS) {
    super({ keepAlive: true, maxFreeSockets: 64 });
    this.#idleMs = idleMs;
  }

  override keepSocketAlive(socket: Duplex): boolean {
    const isKept = (super.keepSocketAlive as (socket: Duplex) => boolean)(socket);
    if (isKept) (socket as Socket).setTimeout(this.#idleMs);
    return isKept;
  }

  override reuseSocket(socket: Duplex, request: ClientRequest): void {
    (socket as Socket).setTimeout(0);
    super.reuseSocket(socket, request);
  }
}

/** What passes calls on: the connections kept to the other nodes, and where a failure is told. */
export interface PassVia {
  readonly agent: Agent;
  readonly logger: Logger;
}

/** One call to pass on: to `target`, with `headers` (raw) and `read`, what of its body was read. */
export interface PassedCall {
  readonly incoming: IncomingMessage;
  readonly response: ServerResponse;
  readonly target: URL;
  /** Its headers, or how to make them (each time it is sent). */
  readonly headers: readonly string[] | (() => readonly string[]);
  readonly read?: Buffer | undefined;
}

/** Methods a call of which is sent again when it was cut before it was answered. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Passes an HTTP call on and its answer back, both streamed, with back-pressure; answers 502 when
 * the target does not answer. A kept-alive connection the target closes as the call goes out on
 * it (the target's idle time-out and the call cross) cuts the call before the target read it: a
 * call that is safe to send again (a read with no body) is sent once more, on a new connection.
 */
export function passCall(via: PassVia, call: PassedCall, isResent = false): void {
  const { incoming, response, target, read } = call;
  const upstream = httpRequest({
    host: target.hostname,
    port: target.port,
    method: incoming.method,
    path: incoming.url,
    headers: [...(typeof call.headers === 'function' ? call.headers() : call.headers)],
    agent: via.agent,
  });
  timeConnection(upstream);
  upstream.on('response', (answer) => relayAnswer(answer, response));
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    if (!isResent && upstream.reusedSocket && error.code === 'ECONNRESET' && isResendable(call)) {
      via.logger.debug(
        { node: target.host },
        'a kept-alive connection closed; the call is sent again',
      );
      passCall(via, call, true);
      return;
    }
    via.logger.warn({ node: target.host, err: error }, 'a node did not answer a passed call');
    incoming.resume(); // what is left of the body is not read by anyone
    sendError(
      response,
      502,
      'bad_gateway',
      'The node that runs this session does not answer: try again shortly.',
      { 'retry-after': '2' },
    );
  });
  // A client that leaves takes the passed call with it.
  response.on('close', () => {
    if (!response.writableFinished) upstream.destroy();
  });
  if (read && read.length > 0) upstream.write(read);
  if (incoming.readableEnded) upstream.end();
  else incoming.pipe(upstream);
}

/**
 * Ends `upstream` when its connection is not made within CONNECT_TIMEOUT_MS. Only the connection
 * is timed: what is passed on (a create, an event stream) may take long.
 */
function timeConnection(upstream: ClientRequest): void {
  const timer = setTimeout(
    () => upstream.destroy(new Error('connect timeout')),
    CONNECT_TIMEOUT_MS,
  );
  upstream.once('socket', (socket: Socket) => {
    if (!socket.connecting) clearTimeout(timer);
    else socket.once('connect', () => clearTimeout(timer));
  });
  upstream.once('close', () => clearTimeout(timer));
}

/** Whether a call may be sent again: a safe method, and no body (none was read, none is sent). */
function isResendable({ incoming, read }: PassedCall): boolean {
  if (!SAFE_METHODS.has(incoming.method ?? '') || (read && read.length > 0)) return false;
  const length = incoming.headers['content-length'];
  return (
    (length === undefined || length === '0') && incoming.headers['transfer-encoding'] === undefined
  );
}

/**
 * Leaves a call whose body was read to this node (false: not taken): its handler takes the body
 * read (`rawBody`, which the Node adapter reads instead of the socket).
 */
function keepHere(incoming: IncomingMessage, body: Buffer): false {
  (incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
  return false;
}

/** Passes an answer back as it comes: status, headers (not the connection's), body streamed. */
function relayAnswer(answer: IncomingMessage, response: ServerResponse): void {
  response.writeHead(
    answer.statusCode ?? 502,
    answer.statusMessage,
    callHeaders(answer.rawHeaders),
  );
  // Headers at once: an event stream's client hears that it is open.
  response.flushHeaders();
  answer.pipe(response);
  answer.on('error', () => response.destroy());
}

/** Raw headers (name, value, …) without those `isLeftOut` names. */
function rawHeadersWithout(headers: readonly string[], isLeftOut: (name: string) => boolean) {
  const kept: string[] = [];
  for (let index = 0; index < headers.length; index += 2) {
    const name = headers[index] as string;
    if (!isLeftOut(name.toLowerCase())) kept.push(name, headers[index + 1] as string);
  }
  return kept;
}

/** A call's or an answer's raw headers without those of its connection. */
const callHeaders = (headers: readonly string[]) =>
  rawHeadersWithout(headers, (name) => HOP_BY_HOP.has(name));

/** Raw headers without the body's length or coding (a body read whole is sent with its own). */
const withoutLengths = (headers: readonly string[]) =>
  rawHeadersWithout(headers, (name) => name === 'content-length' || name === 'transfer-encoding');

/** The address a call came from: the client's, also when another node passed the call on. */
export function clientAddressOf(incoming: IncomingMessage): string | undefined {
  return (
    (incoming as unknown as Record<symbol, string | undefined>)[CLIENT_ADDRESS] ??
    incoming.socket?.remoteAddress
  );
}

/** The node a call arrived at when another node passed it on to this one. */
export function receivedByOf(incoming: IncomingMessage): string | undefined {
  return (incoming as unknown as Record<symbol, string | undefined>)[RECEIVED_BY];
}

/** Whether a call shows a credential: a token, or a session URL's jwt (checked where it lands). */
function hasCredential(incoming: IncomingMessage): boolean {
  return incoming.headers.authorization !== undefined || /[?&]jwt=/.test(incoming.url ?? '');
}

/** What a path names (`/browsers/{id or name}/…`, `/browser_pools/…`), decoded. */
function keyOf(pattern: RegExp, url: string | undefined): string | undefined {
  const match = pattern.exec((url ?? '/').split('?')[0] as string);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1] as string);
  } catch {
    return undefined;
  }
}

/** Whether a path's key is an id of `prefix` (a cluster's, or one server's) rather than a name. */
function isId(key: string, prefix: string): boolean {
  if (!key.startsWith(`${prefix}_`)) return false;
  return nodeTagOf(key) !== undefined || /^[A-Za-z0-9]{12}$/.test(key.slice(prefix.length + 1));
}

/**
 * A call's body, read whole; past `max` bytes, what was read (`isPartial`): the rest is left in
 * the call, paused, to be streamed after it.
 */
async function readBody(
  incoming: IncomingMessage,
  max: number,
): Promise<{ readonly bytes: Buffer; readonly isPartial: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= max) return;
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.pause();
      resolve({ bytes: Buffer.concat(chunks), isPartial: true });
    };
    const onEnd = () => resolve({ bytes: Buffer.concat(chunks), isPartial: false });
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', reject);
  });
}

/** An answer's body as text (a small JSON one). */
async function readText(answer: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** 503 for a pool whose node is lost, until another node takes it (within a renewal). */
/** The refusal of a pool whose holder is lost, as the model words it for an acquire too. */
function sendPoolMoving(response: ServerResponse): void {
  const moving = refusals.poolMoving();
  sendError(response, moving.status, moving.code, moving.message, { ...moving.headers });
}

function sendError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    [HEADERS.apiVersion]: API_VERSION,
    [HEADERS.requestId]: nextRequestId('req'),
    ...headers,
  });
  response.end(JSON.stringify({ code, message }));
}
