import type { Organization } from '@x/service-kernel';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { ClusterNode } from './cluster-node.js';
import type { Forwarder } from './forwarder.js';
import type { NodeAnswer } from './node-calls.js';
import { ClusterPoolPeers } from './pool-peers.js';

const MINUTE = 60_000;

/**
 * A node running warm browsers for pool `pool_BBBBxxxxxxxxxxxx` (held by node BBBB), the pool's
 * node answering `answer` when asked whether it holds one; what the sweep ends.
 */
async function sweepWith(options: {
  answer: () => Promise<NodeAnswer>;
  isStored?: boolean;
  ageMs?: number;
}) {
  const pool = 'pool_BBBBxxxxxxxxxxxx';
  const entry = {
    isWarm: true,
    record: {
      session_id: 'br_AAAAxxxxxxxxxxxx',
      pool: { id: pool },
      created_at: new Date(Date.now() - (options.ageMs ?? 2 * MINUTE)).toISOString(),
    },
  };
  const ended: string[] = [];
  const asked: string[] = [];
  const node = {
    tag: 'AAAA',
    ownerOf: (id: string) => id.slice(id.indexOf('_') + 1, id.indexOf('_') + 5),
    member: () => ({ state: 'up' }),
  } as unknown as ClusterNode;
  const org = {
    models: () => [
      {
        context: {
          project: 'proj_default',
          engines: {
            records: { pools: { get: async () => (options.isStored ? { id: pool } : undefined) } },
          },
        },
        browsers: {
          entries: () => [entry],
          end: async (gone: typeof entry) => {
            ended.push(gone.record.session_id);
          },
        },
        pools: {
          handOutHere: (handed: typeof entry) => {
            handed.isWarm = false;
          },
        },
      },
    ],
  } as unknown as Organization<never>;
  const peers = new ClusterPoolPeers(node, pino({ level: 'silent' }));
  peers.forwarder = {
    callNode: async (tag: string, _method: string, path: string) => {
      asked.push(`${tag} ${path}`);
      return options.answer();
    },
  } as unknown as Forwarder;
  await peers.sweep(org);
  return { ended, asked, entry };
}

describe('the sweep of warm browsers run for other nodes’ pools', () => {
  it('ends one its pool’s node says it does not hold', async () => {
    const { ended, asked } = await sweepWith({
      answer: async () => ({ status: 200, json: { held: false } }),
    });
    expect(asked).toEqual(['BBBB pools/pool_BBBBxxxxxxxxxxxx/holds']);
    expect(ended).toEqual(['br_AAAAxxxxxxxxxxxx']);
  });

  it('keeps one its pool holds', async () => {
    const { ended, entry } = await sweepWith({
      answer: async () => ({ status: 200, json: { held: true, acquired: false } }),
    });
    expect(ended).toEqual([]);
    expect(entry.isWarm).toBe(true);
  });

  it('starts the idle time-out of one its pool handed out to a node that never heard so', async () => {
    const { ended, entry } = await sweepWith({
      answer: async () => ({ status: 200, json: { held: true, acquired: true } }),
    });
    expect(ended).toEqual([]);
    expect(entry.isWarm).toBe(false);
  });

  it('ends one whose pool is gone, and keeps one whose pool moved', async () => {
    const gone = await sweepWith({ answer: async () => ({ status: 404 }), isStored: false });
    expect(gone.ended).toEqual(['br_AAAAxxxxxxxxxxxx']);
    const moved = await sweepWith({ answer: async () => ({ status: 404 }), isStored: true });
    expect(moved.ended).toEqual([]);
  });

  it('keeps one when the pool’s node does not answer, and asks nothing of a young one', async () => {
    const silent = await sweepWith({
      answer: async () => {
        throw new Error('ECONNREFUSED');
      },
    });
    expect(silent.ended).toEqual([]);
    const young = await sweepWith({
      answer: async () => ({ status: 200, json: { held: false } }),
      ageMs: 5_000,
    });
    expect(young.asked).toEqual([]);
    expect(young.ended).toEqual([]);
  });
});
