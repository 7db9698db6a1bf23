import { setTimeout as delay } from 'node:timers/promises';
import {
  type BrowserInstance,
  type BrowserSpec,
  type Organization,
  type PoolPeers,
  refusals,
  ServiceError,
} from '@x/service-kernel';
import {
  ACQUIRE_TIMEOUT_SECONDS,
  BROWSER_END_REASONS,
  type BrowserEndReason,
  type BrowserSession,
} from '@x/types';
import type { Logger } from 'pino';
import type { ClusterNode } from './cluster-node.js';
import type { Forwarder } from './forwarder.js';
import type { NodeAnswer, NodeCall, NodeCallHandler } from './node-calls.js';

/**
 * How old a warm browser started here for another node's pool must be before this node asks
 * whether that pool still holds it (younger ones may be on their way to it).
 */
const ORPHAN_AGE_MS = 60_000;

/**
 * How long after a lent browser was handed out here its pool's node is told: the acquire's
 * answer goes first. A release or a flush that reaches the pool's node sooner asks this node.
 */
const TAKEN_NOTICE_DELAY_MS = 10;

/** How much longer than the acquire's own wait its call to the pool's holder may take. */
const ACQUIRE_CALL_SLACK_MS = 30_000;

/**
 * A pool's browsers on the nodes of a cluster: the node that holds a pool starts its browsers on
 * whichever node has most room, hands them out and takes them back; those nodes run them, hand
 * out the ones lent to them to the acquires they receive, and say when one ends or was handed
 * out. Each call is a signed call between nodes (`/_node/…`).
 */
export class ClusterPoolPeers implements PoolPeers {
  readonly #node: ClusterNode;
  readonly #logger: Logger;
  #forwarder: Forwarder | undefined;
  /** Ends told to pools' nodes, not yet answered: a stop waits for them. */
  readonly #telling = new Set<Promise<unknown>>();

  constructor(node: ClusterNode, logger: Logger) {
    this.#node = node;
    this.#logger = logger;
  }

  /** How this node calls the others: made after the model (it routes the model's calls). */
  set forwarder(forwarder: Forwarder) {
    this.#forwarder = forwarder;
  }

  #calls(): Forwarder {
    if (!this.#forwarder) throw new Error('this node does not call other nodes yet');
    return this.#forwarder;
  }

  get self(): string {
    return this.#node.tag;
  }

  /**
   * Of the nodes with room, the one holding the fewest of the pool's browsers (`share`), the
   * least loaded first among equals: a pool is spread over the nodes, so losing one costs it
   * a share, not all.
   */
  where(share: (node: string) => number): string | undefined {
    let best: string | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const node of this.#node.placements(false)) {
      const held = share(node.id);
      if (held < fewest) {
        best = node.id;
        fewest = held;
      }
    }
    if (best !== undefined) this.#node.took(best);
    return best;
  }

  hasRoom(): boolean {
    return this.#node.placements(false).length > 0;
  }

  nodeOf(sessionId: string): string {
    return this.#node.ownerOf(sessionId);
  }

  async start(
    node: string,
    project: string,
    spec: BrowserSpec,
    origin: string,
    lend: boolean,
  ): Promise<BrowserSession> {
    const answer = await this.#calls()
      .callNode(node, 'POST', 'pool-browsers', { project, spec, origin, lend })
      .catch((error: unknown) => {
        throw new ServiceError('unavailable', `node ${node} did not answer: ${String(error)}`);
      });
    if (answer.status === 201) return answer.json as BrowserSession;
    throw refusalOf(answer, `node ${node} did not start a pool browser`);
  }

  async lease(project: string, sessionId: string): Promise<BrowserSession | undefined> {
    const answer = await this.#call(sessionId, 'lease', { project });
    if (answer.status === 200) return answer.json as BrowserSession;
    if (answer.status === 409) return undefined;
    throw refusalOf(answer, `browser ${sessionId} could not be handed out`);
  }

  async acquire(
    holder: string,
    project: string,
    idOrName: string,
    timeoutSeconds: number,
    signal: AbortSignal,
    gone?: string,
  ): Promise<string | BrowserSession | undefined> {
    const member = this.#node.member(holder);
    if (!member || member.state === 'lost') throw refusals.poolMoving();
    const answer = await this.#calls()
      .callNode(
        holder,
        'POST',
        `pools/${encodeURIComponent(idOrName)}/acquire`,
        { project, timeout_seconds: timeoutSeconds, gone },
        { signal, timeoutMs: timeoutSeconds * 1000 + ACQUIRE_CALL_SLACK_MS },
      )
      .catch((error: unknown) => {
        if (signal.aborted) throw error;
        throw new ServiceError(
          'unavailable',
          `The node that holds this pool (${holder}) did not answer: try again shortly.`,
          { headers: { 'retry-after': '2' } },
        );
      });
    if (answer.status === 204) return undefined;
    if (answer.status === 200) {
      const json = answer.json as { session_id?: string; record?: BrowserSession };
      return json.record ?? json.session_id;
    }
    throw refusalOf(answer, `pool ${idOrName} could not be acquired through node ${holder}`);
  }

  async end(
    project: string,
    sessionId: string,
    reason: BrowserEndReason,
    ifWarm = false,
  ): Promise<boolean> {
    const answer = await this.#call(sessionId, 'end', { project, reason, if_warm: ifWarm });
    if (answer.status === 409 && ifWarm) return false;
    if (answer.status !== 204) throw refusalOf(answer, `browser ${sessionId} could not be ended`);
    return true;
  }

  async warmth(project: string, sessionId: string): Promise<boolean | undefined> {
    const answer = await this.#call(sessionId, 'warmth', { project });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw refusalOf(answer, `browser ${sessionId} did not answer`);
    return (answer.json as { is_warm: boolean }).is_warm;
  }

  ended(project: string, record: BrowserSession): void {
    const pool = record.pool?.id;
    if (pool !== undefined) this.#tell(pool, 'ended', { project, record }, 'a browser end');
  }

  taken(project: string, poolId: string, sessionId: string): void {
    // Told once the acquire's answer has gone: on a busy machine the call's own work, on both
    // nodes, would otherwise slow the answer it follows (by a millisecond on two cores).
    const body = { project, session_id: sessionId };
    this.#tell(poolId, 'taken', body, 'a lent browser handed out', TAKEN_NOTICE_DELAY_MS);
  }

  /**
   * Tells the node that holds pool `pool` what became of one of its browsers here (after
   * `delayMs`), without waiting for its answer (a stop waits for it: `settled`).
   */
  #tell(pool: string, action: string, body: object, what: string, delayMs = 0): void {
    const told = (delayMs > 0 ? delay(delayMs) : Promise.resolve())
      .then(() => {
        const home = this.#node.ownerOf(pool);
        if (home === this.#node.tag) return;
        const path = `pools/${encodeURIComponent(pool)}/${action}`;
        return this.#calls().callNode(home, 'POST', path, body);
      })
      .catch((error: unknown) => {
        // Its node is lost or gone: the node that takes the pool reads what still runs. A
        // holder that missed a hand-out hears of it when it asks for that browser.
        this.#logger.warn({ err: error, pool }, `a pool’s node did not hear ${what}`);
      });
    this.#telling.add(told);
    void told.finally(() => this.#telling.delete(told));
  }

  /** Resolves once every end told to another node has been answered (a stop waits for it). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#telling]);
  }

  /**
   * Ends the warm browsers this node runs for pools of other nodes that do not hold them (the
   * pool was deleted, or the answer to its start was lost on the way): none is left warm here
   * for nobody. Asked of each pool's node, once a browser is a minute old; a node that does not
   * answer, or a pool that moved meanwhile, leaves the browser be.
   */
  async sweep<I extends BrowserInstance>(org: Organization<I>): Promise<void> {
    const now = Date.now();
    for (const model of org.models()) {
      for (const entry of model.browsers.entries()) {
        const pool = entry.record.pool?.id;
        if (!entry.isWarm || pool === undefined) continue;
        if (now - Date.parse(entry.record.created_at) < ORPHAN_AGE_MS) continue;
        const home = this.#node.ownerOf(pool);
        if (home === this.#node.tag || this.#node.member(home)?.state !== 'up') continue;
        const answer = await this.#calls()
          .callNode(home, 'POST', `pools/${encodeURIComponent(pool)}/holds`, {
            project: model.context.project,
            session_id: entry.record.session_id,
          })
          // A holder that does not answer now is asked again at the next sweep.
          .catch(() => undefined);
        if (!answer || answer.status >= 500) continue;
        const held =
          answer.status === 200
            ? (answer.json as { held: boolean; acquired?: boolean })
            : undefined;
        if (held?.held && held.acquired) {
          // Handed out by the pool, to a node whose call gave up before it heard so: nobody
          // holds the lease, so its idle time-out runs from now, and ends it.
          this.#logger.warn(
            { session: entry.record.session_id, pool, node: home },
            'a pool browser handed out unheard: its idle time-out runs now',
          );
          model.pools.handOutHere(entry);
          continue;
        }
        if (held?.held) continue;
        // Not held there: a pool that moved since this node last read where is still in the
        // store (its new holder takes the browser); a pool deleted is not.
        if (
          answer.status !== 200 &&
          (await model.context.engines.records.pools.get(pool).catch(() => 'unknown'))
        )
          continue;
        this.#logger.warn(
          { session: entry.record.session_id, pool, node: home },
          'a warm pool browser its pool does not hold: ending it',
        );
        await model.browsers.end(entry, { reason: 'pool_changed' });
      }
    }
  }

  #call(sessionId: string, action: string, body: object): Promise<NodeAnswer> {
    return this.#calls().callNode(
      this.#node.ownerOf(sessionId),
      'POST',
      `pool-browsers/${encodeURIComponent(sessionId)}/${action}`,
      body,
    );
  }
}

/**
 * A refusal from another node as the error it stands for (429: that node is full; 404: what was
 * asked for is not there; 503: it cannot answer now).
 */
function refusalOf(answer: NodeAnswer, what: string): Error {
  const json = answer.json as { code?: string; message?: string } | undefined;
  if (answer.status === 429) return new ServiceError('rate_limited', json?.message ?? what);
  if (answer.status === 404 && json?.code === 'not_found')
    return new ServiceError('not_found', json.message ?? what);
  if (answer.status === 503)
    return new ServiceError('unavailable', json?.message ?? what, {
      headers: { 'retry-after': '2' },
    });
  return new Error(`${what}: ${answer.status} ${json?.message ?? ''}`.trim());
}

/** The answer for a pool browser this node handed out itself (it was lent to it) meanwhile. */
const TAKEN_HERE: NodeAnswer = {
  status: 409,
  json: { code: 'conflict', message: 'This browser was handed out by the node that runs it.' },
};

/** What a refusal of this node's own model answers another node. */
function answerOf(error: unknown): NodeAnswer {
  if (error instanceof ServiceError)
    return { status: error.status, json: { code: error.code, message: error.message } };
  throw error;
}

/**
 * Answers the calls other nodes make of this one for their pools' browsers: start one here
 * (lent to this node or not), hand it out, end it, say whether it is warm; and, for the pools
 * this node holds, hear that one ended elsewhere or was handed out by a node it was lent to,
 * and say whether it still holds one.
 */
export function poolNodeCalls<I extends BrowserInstance>(org: Organization<I>): NodeCallHandler {
  return async ({ from, method, path, body, signal }: NodeCall): Promise<NodeAnswer> => {
    const given = (body ?? {}) as Record<string, unknown>;
    const project = given.project;
    if (method !== 'POST' || typeof project !== 'string')
      return { status: 400, json: { code: 'bad_request', message: 'Not a call between nodes.' } };
    const model = org.model(project);
    const [kind, rawId, action] = path.split('/');
    const id = rawId === undefined ? undefined : decodeURIComponent(rawId);
    try {
      if (kind === 'pool-browsers' && id === undefined) {
        // What starts is the pool's own spec, as the store has it: never one a call brings.
        const pool = (given.spec as { pool?: { id?: unknown } } | undefined)?.pool?.id;
        const origin = URL.parse(String(given.origin));
        if (
          typeof pool !== 'string' ||
          !origin ||
          !['http:', 'https:'].includes(origin.protocol) ||
          origin.pathname !== '/'
        )
          return {
            status: 400,
            json: { code: 'bad_request', message: 'Not a pool browser call.' },
          };
        const started = await model.pools.startForPool(pool, origin.origin, given.lend === true);
        return { status: 201, json: started };
      }
      if (kind === 'pool-browsers' && id !== undefined) {
        const entry = model.browsers.peek(id);
        if (!entry) return { status: action === 'end' ? 204 : 404 };
        if (action === 'lease') {
          const handed = model.pools.handOutHere(entry);
          return handed ? { status: 200, json: handed } : TAKEN_HERE;
        }
        if (action === 'warmth') return { status: 200, json: { is_warm: entry.isWarm } };
        if (action === 'end') {
          if (given.if_warm === true && !entry.isWarm) return TAKEN_HERE;
          const reason = BROWSER_END_REASONS.find((known) => known === given.reason);
          await model.browsers.endSoon(entry, { reason: reason ?? 'pool_changed' });
          return { status: 204 };
        }
      }
      if (kind === 'pools' && id !== undefined && action === 'ended') {
        model.pools.forget(given.record as BrowserSession, true);
        return { status: 204 };
      }
      if (kind === 'pools' && id !== undefined && action === 'taken') {
        model.pools.takenThere(id, String(given.session_id));
        return { status: 204 };
      }
      if (kind === 'pools' && id !== undefined && action === 'acquire') {
        const asked = Number(given.timeout_seconds);
        const timeout = Number.isFinite(asked)
          ? Math.min(Math.max(asked, 0), ACQUIRE_TIMEOUT_SECONDS.max)
          : 0;
        const gone = typeof given.gone === 'string' ? given.gone : undefined;
        const taken = await model.pools.acquireFor(from, id, timeout, signal, gone);
        if (taken === undefined) return { status: 204 };
        return {
          status: 200,
          json: typeof taken === 'string' ? { session_id: taken } : { record: taken },
        };
      }
      if (kind === 'pools' && id !== undefined && action === 'holds') {
        const sessionId = String(given.session_id);
        const held = model.pools.holds(id, sessionId);
        if (held === undefined) return { status: 404 };
        return { status: 200, json: { held, acquired: model.pools.hasAcquired(id, sessionId) } };
      }
    } catch (error) {
      return answerOf(error);
    }
    return { status: 404, json: { code: 'not_found', message: 'No such call between nodes.' } };
  };
}
