import { useFakeService } from '@x/testing/vitest';
import { DrainedNodeSchema, NodeListSchema } from '@x/types';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { onlyJson, xbAgainst } from '../test-support/run-xb.js';

// A drain lasts until the service stops: this file's fake is its own.
const fake = useFakeService({ listen: true });

describe('node commands', () => {
  const { run } = xbAgainst(fake, true);

  it('lists the node that answered, and drains it: no new browser after, the one in use waited for', async () => {
    const table = await run(['nodes', 'list']);
    expect(table.stdout).toMatch(/^ID +STATE +BROWSERS +URL/);
    expect(table.stdout).toMatch(/^local +up +0\/\d+ +alone +\(answered\)$/m);
    const nodes = v.parse(
      NodeListSchema,
      onlyJson((await run(['nodes', 'list', '--json'])).stdout),
    );
    expect(nodes.map((node) => [node.id, node.state, node.is_self])).toEqual([
      ['local', 'up', true],
    ]);
    const made = await run(['browsers', 'create', '--json']);
    expect(made.code).toBe(0);
    const started = Date.now();
    const drained = await run(['nodes', 'drain', 'local', '--wait-seconds', '1']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(drained.stdout).toMatch(/Node local drains: .* 1 browser still in use on it\./);
    const again = v.parse(
      DrainedNodeSchema,
      onlyJson((await run(['nodes', 'drain', 'local', '--json'])).stdout),
    );
    expect(again).toMatchObject({ node: { state: 'draining' }, browsers_in_use: 1 });
    const refused = await run(['browsers', 'create']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/draining/);
    const unknown = await run(['nodes', 'drain', 'zzzz']);
    expect(unknown.stderr).toMatch(/No node "zzzz"/);
  });
});
