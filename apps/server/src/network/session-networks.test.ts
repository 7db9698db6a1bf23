import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSystemTools } from '../system/executables.js';
import { HostClaims } from '../system/host-claims.js';
import { describeRefusal } from './refusal-log.js';
import { SessionNetworks } from './session-networks.js';
import { SlotQueue } from './slot-queue.js';

describe('SlotQueue', () => {
  it('hands slots out in the order they came back, growing as it needs', () => {
    const queue = new SlotQueue();
    for (let slot = 1; slot <= 40; slot++) queue.push(slot);
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual([1, 2, 3]);
    queue.push(2);
    queue.push(1);
    const rest: number[] = [];
    for (let slot = queue.shift(); slot !== undefined; slot = queue.shift()) rest.push(slot);
    expect(rest).toEqual([...Array.from({ length: 37 }, (_, index) => index + 4), 2, 1]);
    expect(queue.size).toBe(0);
  });
});

describe('describeRefusal', () => {
  it('names the rule that refused a destination, and the setting that opens it', () => {
    expect(describeRefusal('127.0.0.1:3000/tcp', '10.200.0.0/16')).toEqual({
      rule: "loopback (127.0.0.0/8): the session's own, not the host's, unless the operator opens it",
      opens: 'XB_ALLOW_NETWORKS=127.0.0.1:3000',
    });
    expect(describeRefusal('192.168.1.4:80/tcp', '10.200.0.0/16')).toEqual({
      rule: 'a private or reserved network (192.168.0.0/16)',
      opens: 'XB_ALLOW_NETWORKS=192.168.1.4:80',
    });
    expect(describeRefusal('10.200.3.9:80/tcp', '10.200.0.0/16')).toEqual({
      rule: "the sessions' own network (10.200.0.0/16): never opened",
    });
    expect(describeRefusal('203.0.113.7:22/tcp', '10.200.0.0/16').rule).toBe(
      "one of this host's own addresses",
    );
  });
});

const tools = findSystemTools();
const canMakeNetworks =
  process.getuid?.() === 0 && tools.ip !== undefined && tools.nft !== undefined && !!tools.nsenter;

describe.skipIf(!canMakeNetworks)('session networks, made and ended in quick turns', () => {
  let root = '';
  let networks: SessionNetworks;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'xb-networks-'));
    const dataDir = join(root, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    networks = await SessionNetworks.start({
      tools: { ip: tools.ip as string, nft: tools.nft as string, nsenter: tools.nsenter as string },
      dataDir,
      subnet: undefined,
      claims: new HostClaims(dataDir),
      logger: pino({ level: 'silent' }),
    });
  }, 60_000);
  afterAll(async () => {
    await networks?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  // `ip netns delete` returns before the kernel has removed the namespace's veth pair: a link
  // made at once on the slot just given back met "File exists", and the session failed to start.
  it('never makes a link on a slot whose last link the kernel is still removing', async () => {
    for (let round = 0; round < 12; round++) {
      const made = await Promise.all(
        Array.from({ length: 4 }, (_, index) => networks.create(`ses_${round}_${index}`, [])),
      );
      for (const network of made) await network.close();
    }
  }, 120_000);
});
