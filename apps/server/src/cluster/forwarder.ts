import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { nodeTagOf, refusals } from '@x/service-kernel';
import type { Logger } from 'pino';
import { refuseUpgrade } from '../http/cdp-proxy.js';
import type { ClusterNode } from './cluster-node.js';
import { clusterRouteOf } from './cluster-routes.js';
import { gatherPools } from './gather.js';
import { HOP_HEADER, HopSigner, NODE_CALLS_PATH } from './hop-signing.js';
import {
  answerNodeCall,
  callNode,
  type NodeAnswer,
  type NodeCallHandler,
  type NodeCallOptions,
} from './node-calls.js';
import {
  callHeaders,
  keepHere,
  NodeAgent,
  passCall,
  readBody,
  relayAnswer,
  sendCall,
  sendError,
  tunnelUpgrade,
} from './relay.js';

/** Largest create body a node reads to place it (the API takes far smaller ones). */
const MAX_CREATE_BYTES = 1024 * 1024;

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
 * Passes the calls and WebSockets of sessions other nodes run to them, each by its operation's
 * `clusterRoute` (read by `cluster-routes.ts`): the owner is read from the session's id (its
 * node's tag), so no lookup is made; a name is looked up in the store. A new browser goes to the
 * least loaded node with room. Each passed call is signed (`hop-signing.ts`) and names the node
 * it came from; a node never passes on a call that another node passed to it, so no call loops.
 * Calls are relayed as bytes (`relay.ts`); the nodes' own calls of each other are `node-calls.ts`.
 */
export class Forwarder {
  readonly #node: ClusterNode;
  readonly #logger: Logger;
  readonly #resolveName: NameResolver;
  readonly #holds: (kind: 'browsers' | 'pools', name: string) => boolean;
  readonly #resolveApp: AppResolver;
  readonly #agent = new NodeAgent();
  readonly #signer: HopSigner;
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
    this.#signer = new HopSigner(node, logger);
  }

  get #via() {
    return { agent: this.#agent, logger: this.#logger };
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
      if (!this.#signer.verify(incoming, hop)) {
        sendError(response, 403, 'forbidden', 'A call passed between nodes with a bad signature.');
        return true;
      }
      if (!(incoming.url ?? '').startsWith(NODE_CALLS_PATH)) return false;
      await answerNodeCall(this.#signer, this.nodeCalls, this.#via, incoming, response);
      return true;
    }
    // A call with no credential at all is refused here (401): it costs no other node anything.
    if (!hasCredential(incoming)) return false;
    const path = (incoming.url ?? '/').split('?')[0] as string;
    const { route, key, pool } = clusterRouteOf(incoming.method ?? 'GET', path);
    // Alone in the cluster: nothing to pass on, but a pool of a lost node is on its way here.
    if (this.#isAlone()) return pool !== undefined && this.#isPoolMoving(pool, response);
    switch (route) {
      case 'here':
        return false;
      case 'place':
        return this.#place(incoming, response);
      case 'invoke':
        return this.#invoke(incoming, response);
      case 'gather':
        await gatherPools(
          incoming,
          response,
          this.#node.url,
          this.#node.members().filter((member) => member.state !== 'lost'),
          (target, body, to) => this.#send(incoming, target, body, to),
        );
        return true;
      case 'node':
        return this.#drainThere(incoming, response, key);
      case 'run':
      case 'session':
      case 'pool': {
        const target = await this.#targetOf(route, key);
        if (target === 'moving') {
          sendPoolMoving(response);
          return true;
        }
        if (!target) return false;
        this.#pass(incoming, response, target);
        return true;
      }
    }
  }

  /**
   * Passes a drain to the node it names (true); this node answers one of its own, of a node it
   * does not know (404) or of a lost one (409).
   */
  #drainThere(incoming: IncomingMessage, response: ServerResponse, tag: string | undefined) {
    const member = tag === undefined ? undefined : this.#node.member(tag);
    if (!member || member.id === this.#node.tag || member.state === 'lost') return false;
    this.#pass(incoming, response, new URL(member.url));
    return true;
  }

  /** Answers 503 for a pool of a lost node that has not moved yet (true); else leaves the call. */
  async #isPoolMoving(pool: string, response: ServerResponse): Promise<boolean> {
    if (this.#holds('pools', pool)) return false;
    // The store away: no pool is known to be moving, and this node answers the call itself.
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
      if (this.#signer.verify(incoming, hop)) return false;
      refuseUpgrade(socket, 401, 'A call passed between nodes with a bad signature.');
      return true;
    }
    if (this.#isAlone() || !hasCredential(incoming)) return false;
    // Session URLs name sessions by id: no lookup on the way of a WebSocket.
    const path = (incoming.url ?? '/').split('?')[0] as string;
    const { route, key } = clusterRouteOf(incoming.method ?? 'GET', path);
    const owner = route === 'session' && key !== undefined ? this.#remoteOwner(key) : undefined;
    if (!owner) return false;
    tunnelUpgrade(this.#via, incoming, socket, head, owner, this.#headersFor(incoming, owner));
    return true;
  }

  close(): void {
    this.#agent.destroy();
  }

  /**
   * Makes a call of node `tag` (signed, below `/_node/`): its answer, JSON read. Rejects when the
   * node is unknown, lost, or does not answer in time, or when `options.signal` aborts.
   */
  callNode(
    tag: string,
    method: string,
    path: string,
    body: unknown,
    options: NodeCallOptions = {},
  ): Promise<NodeAnswer> {
    const caller = {
      signer: this.#signer,
      via: this.#via,
      addressOf: (of: string) => {
        const member = this.#node.member(of);
        return member && member.state !== 'lost' ? member.url : undefined;
      },
    };
    return callNode(caller, tag, method, path, body, options);
  }

  /**
   * The hop header of a call between nodes: for node `to`, once, binding `body` (what `callNode`
   * sends).
   */
  signNodeCall(to: string, method: string, path: string, body: Buffer): string {
    return this.#signer.signNodeCall(to, method, path, body);
  }

  /** Whether no other node is up (or draining, its sessions still running). */
  #isAlone(): boolean {
    return !this.#node
      .members()
      .some((member) => member.id !== this.#node.tag && member.state !== 'lost');
  }

  /**
   * The node to pass a session's, a run's or a pool's call to, or undefined: this node answers
   * it. A pool is held by one node (its browsers run on any): the one that made it, until that
   * node is lost or leaves and another takes it (`moving` until then).
   */
  async #targetOf(
    route: 'session' | 'run' | 'pool',
    key: string | undefined,
  ): Promise<URL | 'moving' | undefined> {
    if (key === undefined) return undefined;
    if (route === 'run') return this.#remoteOwner(key);
    const kind = route === 'pool' ? 'pools' : 'browsers';
    const prefix = route === 'pool' ? 'pool' : 'br';
    if (!isId(key, prefix) && this.#holds(kind, key)) return undefined;
    // The store away: the name resolves to nothing, and this node answers the call itself, as
    // it would alone.
    const id = isId(key, prefix) ? key : await this.#resolveName(kind, key).catch(() => undefined);
    if (id === undefined) return undefined;
    if (route === 'pool' && this.#isOwnerLost(id)) return 'moving';
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
    // A node that does not answer is told to the caller below (502, try again).
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

  #headersFor(incoming: IncomingMessage, target: URL, path = incoming.url): string[] {
    return [
      ...callHeaders(incoming.rawHeaders),
      HOP_HEADER,
      this.#signer.sign(incoming, target, path),
    ];
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
    return sendCall(
      this.#via,
      incoming,
      target,
      body,
      this.#headersFor(incoming, target, path),
      path,
    );
  }

  /**
   * Passes an HTTP call on and its answer back, both streamed; `read`: what of the body was read
   * already, sent first.
   */
  #pass(incoming: IncomingMessage, response: ServerResponse, target: URL, read?: Buffer): void {
    passCall(
      this.#via,
      // Signed again if sent again: a nonce is taken once.
      { incoming, response, target, headers: () => this.#headersFor(incoming, target), read },
    );
  }
}

/** Whether a call shows a credential: a token, or a session URL's jwt (checked where it lands). */
function hasCredential(incoming: IncomingMessage): boolean {
  return incoming.headers.authorization !== undefined || /[?&]jwt=/.test(incoming.url ?? '');
}

/** Whether a path's key is an id of `prefix` (a cluster's, or one server's) rather than a name. */
function isId(key: string, prefix: string): boolean {
  if (!key.startsWith(`${prefix}_`)) return false;
  return nodeTagOf(key) !== undefined || /^[A-Za-z0-9]{12}$/.test(key.slice(prefix.length + 1));
}

/** 503 for a pool whose node is lost, until another node takes it (within a renewal). */
/** The refusal of a pool whose holder is lost, as the model words it for an acquire too. */
function sendPoolMoving(response: ServerResponse): void {
  const moving = refusals.poolMoving();
  sendError(response, moving.status, moving.code, moving.message, { ...moving.headers });
}
