import { describe, expect, it } from 'vitest';
import { getBrowserPool } from '../areas/index.js';
import { catalogChecks } from '../calls/checked.js';
import { defineCall } from '../calls/define-call.js';
import { BadRequestError, InputValidationError, ResponseValidationError } from '../errors/index.js';
import { useRecordingServer } from '../test-support/recording-server.js';
import * as samples from '../test-support/samples.js';
import { createCore } from './core.js';
import { createClient } from './create-client.js';

const rig = useRecordingServer();
const badRequest = {
  status: 400,
  json: {
    code: 'bad_request',
    message: 'Invalid input',
    details: [{ code: 'invalid_input', message: 'viewport.width: must be at least 320' }],
  },
};

describe('the checks of a client', () => {
  it('are off by default: the input goes to the service, whose error names the field', async () => {
    rig.server.respond('POST', '/browsers', badRequest);
    const error = await rig.client.browsers
      .create({ viewport: { width: 1, height: 800 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).details?.[0]?.message).toMatch(/viewport.width/);
    expect(JSON.parse(rig.server.calls[0]?.body.toString() ?? '')).toEqual({
      viewport: { width: 1, height: 800 },
    });
  });

  it('are off by default for answers too: an answer is given as it came', async () => {
    const odd = { ...samples.pool, available_count: 'two' };
    rig.server.respond('GET', '/browser_pools/checkout', { status: 200, json: odd });
    expect(await rig.client.browserPools.get({ id_or_name: 'checkout' })).toEqual(odd);
  });

  it('with catalogChecks, refuse bad input before sending and a broken answer after', async () => {
    const error = await rig.checkedClient.browsers
      .create({ viewport: { width: 1, height: 800 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as Error).message).toMatch(/browsers.create.*viewport.width/);
    expect(rig.server.calls).toHaveLength(0);

    const odd = { ...samples.pool, available_count: 'two' };
    rig.server.respond('GET', '/browser_pools/checkout', { status: 200, json: odd });
    await expect(
      rig.checkedClient.browserPools.get({ id_or_name: 'checkout' }),
    ).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('belong to the core: kept by withOptions, and applied to the functions too', async () => {
    const core = createCore({ baseUrl: rig.server.url, token: 't', checks: catalogChecks });
    await expect(getBrowserPool(core, { id_or_name: 'p', extra: 1 } as never)).rejects.toThrow(
      /extra: is not a known field/,
    );
    const client = createClient({ baseUrl: rig.server.url, token: 't', checks: catalogChecks });
    await expect(
      client
        .withOptions({ timeout: 5_000 })
        .browserPools.get({ id_or_name: 'p', extra: 1 } as never),
    ).rejects.toBeInstanceOf(InputValidationError);
    expect(rig.server.calls).toHaveLength(0);
    // And can be turned off again.
    rig.server.respond('GET', '/browser_pools/p', { status: 200, json: samples.pool });
    await client.withOptions({ checks: undefined }).browserPools.get({ id_or_name: 'p' });
    expect(rig.server.calls).toHaveLength(1);
  });

  it('leave a call of a route outside the catalog unchecked', async () => {
    expect(catalogChecks({ name: 'shop.ping' })).toBeUndefined();
    const ping = defineCall({
      name: 'shop.ping',
      method: 'GET',
      path: '/ping',
      responses: { 200: 'json' },
    });
    rig.server.respond('GET', '/ping', { status: 200, json: { anything: true } });
    const core = createCore({ baseUrl: rig.server.url, token: 't', checks: catalogChecks });
    expect(await ping(core)).toEqual({ anything: true });
  });

  it('are made once per operation', () => {
    expect(catalogChecks({ name: 'browsers.create' })).toBe(
      catalogChecks({ name: 'browsers.create' }),
    );
  });
});

describe('a client without checks', () => {
  it('sends a wait too long for any timer, and the service names the field', async () => {
    rig.server.respond('POST', '/browsers/br_1/process/exec', badRequest);
    // 3e6 s would ask for a time-out no timer can hold; the call goes out all the same.
    const error = await rig.client.browsers.process
      .exec({ id: 'br_1', command: 'ls', timeout_sec: 3_000_000 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(rig.server.calls).toHaveLength(1);
  });

  it('keeps a project header given in headers when no project is set', async () => {
    rig.server.respond('GET', '/browser_pools/p', { status: 200, json: samples.pool });
    const client = createClient({
      baseUrl: rig.server.url,
      token: 't',
      headers: { 'x-kernel-project-id': 'from-headers' },
    });
    await client.browserPools.get({ id_or_name: 'p' });
    expect(rig.server.calls[0]?.headers['x-kernel-project-id']).toBe('from-headers');
  });
});
