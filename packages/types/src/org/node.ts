import {
  array,
  boolean,
  type InferInput,
  type InferOutput,
  nullable,
  number,
  object,
  optional,
  picklist,
  string,
} from 'valibot';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { pageQueryEntries } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';

/** What a node may be: up, draining (no new browser starts on it), or lost (its heartbeat lapsed). */
export const NODE_STATES = ['up', 'draining', 'lost'] as const;

/** A node's state. */
export type NodeState = (typeof NODE_STATES)[number];

/** The id of a server that runs alone (on SQLite), its only node. */
export const LOCAL_NODE_ID = 'local';

/** Longest a drain call waits for the node's sessions in use to end, in seconds. */
export const MAX_DRAIN_WAIT_SECONDS = 600;

/** One node of the service: a server alone is one, a cluster's every server is one. */
export const NodeSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    "the node's id (the tag its ids carry); `local` for a server alone",
  ),
  url: /* @__PURE__ */ described(
    /* @__PURE__ */ nullable(/* @__PURE__ */ string()),
    'where the other nodes reach it (XB_NODE_URL); null for a server alone',
  ),
  state: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(NODE_STATES),
    'up; draining (no new browser starts on it, its sessions go on); lost (its heartbeat lapsed)',
  ),
  is_self: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean(),
    'whether it is the node that answered this call',
  ),
  max_browsers: /* @__PURE__ */ described(
    /* @__PURE__ */ number(),
    'the browsers it runs at most (its XB_MAX_BROWSERS)',
  ),
  browsers: /* @__PURE__ */ described(
    /* @__PURE__ */ number(),
    "the browsers it runs, pools' idle ones included (another node's as of its last heartbeat, at most 2 s old)",
  ),
});

/** One node of the service. */
export type ServiceNode = InferOutput<typeof NodeSchema>;

/** Query of GET /org/nodes: a page of the nodes, by id. */
export const ListNodesQuerySchema = /* @__PURE__ */ requestObject({ ...pageQueryEntries });

/** A query of GET /org/nodes, validated. */
export type NodeListQuery = InferOutput<typeof ListNodesQuerySchema>;

/** One page of GET /org/nodes: the nodes the service knows, lost ones included, by id. */
export const NodeListSchema = /* @__PURE__ */ array(NodeSchema);

/** Body of POST /org/nodes/{id}/drain. */
export const DrainNodeBodySchema = /* @__PURE__ */ requestObject({
  wait_seconds: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(integerBetween(0, MAX_DRAIN_WAIT_SECONDS), 0),
    `how long the call waits for the node's sessions in use to end, 0–${MAX_DRAIN_WAIT_SECONDS} s, default 0 (answer at once)`,
  ),
});

/** What a drain call asks for. */
export type DrainNodeInput = InferInput<typeof DrainNodeBodySchema>;

/** The answer of a drain call: the node, and what still runs on it. */
export const DrainedNodeSchema = /* @__PURE__ */ object({
  node: /* @__PURE__ */ described(NodeSchema, 'the node, draining'),
  browsers_in_use: /* @__PURE__ */ described(
    /* @__PURE__ */ number(),
    "browsers still in use on it when the call answered (pools' idle ones left out): 0 means it can stop without ending a session",
  ),
});

/** The answer of a drain call. */
export type DrainedNode = InferOutput<typeof DrainedNodeSchema>;
