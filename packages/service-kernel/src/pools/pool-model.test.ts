import { describe, expect, it } from 'vitest';
import { BROWSER, testModel } from '../test-support/memory-engines.js';

const ORIGIN = 'http://localhost:1';
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('filling pools', () => {
  it('fill at their rate where the settings say so', async () => {
    const { model } = testModel({ fillRate: true, async: true });
    await model.pools.create({ size: 20, fill_rate_per_minute: 10 }, ORIGIN);
    await tick();
    expect(model.pools.list()[0]?.available_count).toBe(2);
    model.close();
  });

  it('fill at once where they do not', async () => {
    const { model } = testModel();
    await model.pools.create({ size: 5 }, ORIGIN);
    expect(model.pools.list()[0]?.available_count).toBe(5);
  });

  it("start more as the model's clock moves, on a sweep", async () => {
    const { model, advance } = testModel({ fillRate: true });
    await model.pools.create({ size: 10, fill_rate_per_minute: 10 }, ORIGIN);
    expect(model.pools.list()[0]?.available_count).toBe(1);
    model.sweep();
    expect(model.pools.list()[0]?.available_count).toBe(1);
    advance(60_000);
    model.sweep();
    expect(model.pools.list()[0]?.available_count).toBe(2);
    model.close();
  });

  it('keep the starts the service was too full to make, for when room comes', async () => {
    const { model } = testModel({ fillRate: true, maxBrowsers: 2 });
    const other = await model.browsers.create(BROWSER, ORIGIN);
    await model.pools.create({ size: 3, fill_rate_per_minute: 100 }, ORIGIN);
    expect(model.pools.list()[0]?.available_count).toBe(1);
    for (let sweep = 0; sweep < 5; sweep++) model.sweep();
    await model.browsers.delete(other.record.session_id);
    // Room for one more, and the pool still holds the starts it could not make: no waiting.
    expect(model.pools.list()[0]?.available_count).toBe(2);
    model.close();
  });

  it('fill a seeded pool whole, whatever its rate', () => {
    const { model } = testModel({ fillRate: true });
    model.pools.seed(
      {
        id: 'pool_1',
        available_count: 0,
        acquired_count: 1,
        created_at: '2026-11-22T10:00:00.000Z',
        browser_pool_config: { size: 4, fill_rate_per_minute: 10 },
      },
      ORIGIN,
    );
    expect(model.pools.get('pool_1')).toMatchObject({ available_count: 3, acquired_count: 1 });
    model.close();
  });
});
