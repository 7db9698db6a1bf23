import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createPool, uniqueName } from './resources.js';

type PoolBody = { id: string; name?: string; available_count: number; acquired_count: number };

/** Browser pools, with get (4.3). */
export const poolChecks: readonly ContractCheck[] = defineChecks('pools', {
  'get (4.3) finds a pool by id and by name, with its counts': async (context) => {
    const pool = await createPool(context, { size: 1 });
    const byId = context.expectSuccess<PoolBody>(
      await context.call('GET', `/browser_pools/${pool.id}`),
      'browserPools.get',
      200,
    );
    const byName = context.expectSuccess<PoolBody>(
      await context.call('GET', `/browser_pools/${pool.name}`),
      'browserPools.get',
      200,
    );
    expect(byId.id === pool.id && byName.id === pool.id, 'get by id or name found another pool');
    expect(byId.acquired_count === 0, `a new pool has acquired_count ${byId.acquired_count}`);
  },
  'an unknown pool is 404; a duplicate name is 409; a size of 0 is 400': async (context) => {
    context.expectError(await context.call('GET', '/browser_pools/no-such-pool'), 404, 'not_found');
    const pool = await createPool(context);
    context.expectError(
      await context.call('POST', '/browser_pools', { json: { size: 1, name: pool.name } }),
      409,
      'conflict',
    );
    context.expectError(
      await context.call('POST', '/browser_pools', { json: { size: 0 } }),
      400,
      'bad_request',
    );
    const badName = await context.call('POST', '/browser_pools', {
      json: { size: 1, name: 'has space' },
    });
    context.expectError(badName, 400, 'bad_request');
  },
  'acquire hands a browser out, 204 when none comes free, release gives it back': async (
    context,
  ) => {
    const pool = await createPool(context, { size: 1 });
    const path = `/browser_pools/${pool.id}`;
    const acquired = context.expectSuccess<{ session_id: string; pool?: { id: string } }>(
      await context.call('POST', `${path}/acquire`, { json: { acquire_timeout_seconds: 30 } }),
      'browserPools.acquire',
      200,
    );
    expect(acquired.pool?.id === pool.id, 'an acquired browser does not name its pool');
    const counts = context.expectSuccess<PoolBody>(
      await context.call('GET', path),
      'browserPools.get',
      200,
    );
    expect(
      counts.acquired_count === 1 && counts.available_count === 0,
      `counts after acquire: ${JSON.stringify(counts)}`,
    );
    const none = await context.call('POST', `${path}/acquire`, {
      json: { acquire_timeout_seconds: 0 },
    });
    context.expectSuccess(none, 'browserPools.acquire', 204);
    context.expectError(await context.call('DELETE', path), 409, 'conflict');
    const release = await context.call('POST', `${path}/release`, {
      json: { session_id: acquired.session_id },
    });
    context.expectSuccess(release, 'browserPools.release', 204);
    const after = context.expectSuccess<PoolBody>(
      await context.call('GET', path),
      'browserPools.get',
      200,
    );
    expect(after.acquired_count === 0, `acquired_count after release is ${after.acquired_count}`);
    context.expectError(
      await context.call('POST', `${path}/release`, { json: { session_id: acquired.session_id } }),
      409,
      'conflict',
    );
  },
  'update changes the configuration; list includes the pool; flush answers 204; delete with force ends it':
    async (context) => {
      const pool = await createPool(context, { size: 1 });
      const newName = uniqueName('renamed');
      const updated = context.expectSuccess<PoolBody & { browser_pool_config: { size: number } }>(
        await context.call('PATCH', `/browser_pools/${pool.id}`, {
          json: { name: newName, size: 2 },
        }),
        'browserPools.update',
        200,
      );
      expect(
        updated.name === newName && updated.browser_pool_config.size === 2,
        `the update reads ${JSON.stringify(updated)}`,
      );
      const list = context.expectSuccess<PoolBody[]>(
        await context.call('GET', '/browser_pools'),
        'browserPools.list',
        200,
      );
      expect(
        list.some((entry) => entry.id === pool.id),
        'the list lacks the pool',
      );
      context.expectSuccess(
        await context.call('POST', `/browser_pools/${newName}/flush`),
        'browserPools.flush',
        204,
      );
      await context.call('POST', `/browser_pools/${pool.id}/acquire`, {
        json: { acquire_timeout_seconds: 30 },
      });
      context.expectSuccess(
        await context.call('DELETE', `/browser_pools/${pool.id}?force=true`),
        'browserPools.delete',
        204,
      );
      context.expectError(await context.call('GET', `/browser_pools/${pool.id}`), 404, 'not_found');
    },
  'delete takes force from a JSON body as well as from the query': async (context) => {
    const pool = await createPool(context, { size: 1 });
    await context.call('POST', `/browser_pools/${pool.id}/acquire`, {
      json: { acquire_timeout_seconds: 30 },
    });
    context.expectError(
      await context.call('DELETE', `/browser_pools/${pool.id}`, { json: { force: false } }),
      409,
      'conflict',
    );
    context.expectError(
      await context.call('DELETE', `/browser_pools/${pool.id}`, { json: { force: 'yes' } }),
      400,
      'bad_request',
    );
    context.expectSuccess(
      await context.call('DELETE', `/browser_pools/${pool.id}`, { json: { force: true } }),
      'browserPools.delete',
      204,
    );
    context.expectError(await context.call('GET', `/browser_pools/${pool.id}`), 404, 'not_found');
  },
});
