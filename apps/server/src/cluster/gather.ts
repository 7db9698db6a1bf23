import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_VERSION, HEADERS } from '@x/types';
import { nextRequestId, readText, relayAnswer, sendError } from './relay.js';

/** Most pools one node lists for a gathered list (each node's pools, every page). */
const MAX_GATHERED = 10_000;

/** Sends the call being gathered to a node (to `path`, else the call's own), its answer unread. */
export type GatherSend = (target: URL, body: Buffer, path?: string) => Promise<IncomingMessage>;

/**
 * Answers a list of pools with every node's: each is held by one node, which alone
 * knows how many browsers it holds. Each node is asked for all of its own (filtered as asked),
 * then the page asked for is cut from them together, oldest first. `self`: this node's address;
 * `nodes`: every node that is not lost (this one among them).
 */
export async function gatherPools(
  incoming: IncomingMessage,
  response: ServerResponse,
  self: string,
  nodes: readonly { readonly url: string }[],
  send: GatherSend,
): Promise<void> {
  const asked = new URL(incoming.url ?? '/', 'http://node');
  // This node first, asked as the caller asked: it answers a bad query or token as it would
  // alone, and its answer's headers (request id, API version) are the gathered answer's.
  const own = await send(new URL(self), Buffer.alloc(0)).catch(() => undefined);
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
  const lists = await Promise.all(
    nodes.map(async (member) => {
      const items: { id: string; created_at: string }[] = [];
      while (items.length < MAX_GATHERED) {
        const query = new URL(asked);
        query.searchParams.set('offset', String(items.length));
        query.searchParams.set('limit', '100');
        const answer = await send(
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
    // A node that does not answer is told to the caller below (502, try again).
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
