import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
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
export function bodyDigest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/** Where the calls nodes make of each other (not the API's) go: answered only when signed. */
export const NODE_CALLS_PATH = '/_node/';

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

/**
 * Signs the calls a node passes to another and checks those passed to it: an HMAC with the
 * cluster's hop secret over the sender, the receiver, the time, a nonce taken once, the client's
 * address and the body's digest, the method and the path.
 */
export class HopSigner {
  readonly #node: ClusterNode;
  readonly #logger: Logger;
  /** The nonces of hops taken, with when each may be forgotten (unix seconds). */
  readonly #nonces = new Map<string, number>();
  /** When this node started (unix seconds): a hop signed before is refused (its nonce unknown). */
  readonly #startedAt = Math.floor(Date.now() / 1000);

  constructor(node: ClusterNode, logger: Logger) {
    this.#node = node;
    this.#logger = logger;
  }

  /**
   * The hop header of a call between nodes: for node `to`, once, binding `body` (what `callNode`
   * sends).
   */
  signNodeCall(to: string, method: string, path: string, body: Buffer): string {
    return this.#hop(to, method, path, '', bodyDigest(body));
  }

  /** A passed API call's hop header, for the node at `target` (its body streamed, unbound). */
  sign(incoming: IncomingMessage, target: URL, path = incoming.url): string {
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
  verify(incoming: IncomingMessage, header: string | string[]): boolean {
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

  /**
   * Takes a verified node call whose body was read (`bytes`): `ok` once, for the body it was
   * signed for; `other-body` for another body, `taken` for a call made already.
   */
  takeNodeCall(incoming: IncomingMessage, bytes: Buffer): 'ok' | 'other-body' | 'taken' {
    const signed = (incoming as unknown as Record<symbol, SignedBody | undefined>)[BODY_DIGEST];
    if (signed?.digest !== bodyDigest(bytes)) return 'other-body';
    if (!this.#takeNonce(signed.nonce, signed.forgetAt, Math.floor(Date.now() / 1000)))
      return 'taken';
    return 'ok';
  }
}

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
