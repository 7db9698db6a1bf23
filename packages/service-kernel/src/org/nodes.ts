import {
  type DrainedNode,
  LOCAL_NODE_ID,
  type NodeListQuery,
  type Page,
  type ServiceNode,
} from '@x/types';
import type { NodeDirectory } from '../engines.js';
import type { Caller } from '../pipeline/auth.js';
import { namedPage } from '../records/named-page.js';
import { ServiceError } from '../service-error.js';
import { assertOrgWide, type OrgContext } from './org-context.js';

/** What the nodes need of this node's own state. */
export interface OwnNode {
  readonly isDraining: () => boolean;
  /** Browsers running or starting here, every project's. */
  readonly browsers: () => number;
  /** Drains this node, waiting as `Organization.drain` does; gives the browsers still in use. */
  readonly drain: (waitSeconds: number, signal: AbortSignal) => Promise<number>;
}

/** The service's nodes: this one first-hand, a cluster's others as of their last heartbeat. */
export class Nodes {
  readonly #context: OrgContext;
  readonly #directory: NodeDirectory | undefined;
  readonly #own: OwnNode;

  /** `directory`: the cluster's nodes; none for a server alone, which is its only node. */
  constructor(context: OrgContext, directory: NodeDirectory | undefined, own: OwnNode) {
    this.#context = context;
    this.#directory = directory;
    this.#own = own;
  }

  /** The nodes, by id. */
  list(): ServiceNode[] {
    const directory = this.#directory;
    const self = directory?.self ?? LOCAL_NODE_ID;
    const own: ServiceNode = {
      id: self,
      url: null,
      state: this.#own.isDraining() ? 'draining' : 'up',
      is_self: true,
      max_browsers: this.#context.settings.maxBrowsers,
      browsers: this.#own.browsers(),
    };
    const nodes = (directory?.members() ?? []).map(
      (member): ServiceNode =>
        member.id === self
          ? { ...own, url: member.url }
          : {
              id: member.id,
              url: member.url,
              state: member.state,
              is_self: false,
              max_browsers: member.capacity,
              browsers: member.running,
            },
    );
    if (!nodes.some((node) => node.is_self)) nodes.push(own);
    return nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** One page of the nodes, by id (an organization-wide key only). */
  page(caller: Caller, query: NodeListQuery): Page<ServiceNode> {
    assertOrgWide(caller, 'list nodes');
    return namedPage(this.list(), query);
  }

  /**
   * Drains node `id`, which must be this one (a cluster passes the call to its node), as
   * `Organization.drain` does, waiting for as long as the caller stays.
   */
  async drain(
    caller: Caller,
    id: string,
    waitSeconds: number,
    signal: AbortSignal,
  ): Promise<DrainedNode> {
    assertOrgWide(caller, 'drain nodes');
    const node = this.list().find((found) => found.id === id);
    if (!node) throw new ServiceError('not_found', `No node "${id}" in this service.`);
    if (!node.is_self) {
      if (node.state === 'lost') {
        throw new ServiceError('conflict', `Node ${id} is lost: it runs nothing to drain.`);
      }
      throw new ServiceError(
        'unavailable',
        `Node ${id} could not be reached from this node: ask it directly (${node.url}).`,
      );
    }
    const inUse = await this.#own.drain(waitSeconds, signal);
    const drained = this.list().find((found) => found.is_self) as ServiceNode;
    return { node: drained, browsers_in_use: inUse };
  }
}
