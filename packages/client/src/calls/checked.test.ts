import {
  acquireBrowserOperation,
  getBrowserPoolOperation,
  listInvocationsOperation,
  typeTextOperation,
  watchEventsOperation,
} from '@x/types';
import { describe, expect, it } from 'vitest';
import {
  acquireBrowser,
  getBrowserPool,
  listInvocations,
  typeText,
  uploadFiles,
  watchEvents,
  writeFile,
} from '../areas/index.js';
import { createCore } from '../client/core.js';
import { BadRequestError, TimeoutError } from '../errors/index.js';
import { InputValidationError, ResponseValidationError } from '../errors/validation-errors.js';
import { useRecordingServer } from '../test-support/recording-server.js';
import * as samples from '../test-support/samples.js';
import { checked } from './checked.js';

const rig = useRecordingServer();
const core = () => createCore({ baseUrl: rig.server.url, token: 'tok_test' });
/** What a call failed with; a call that succeeds fails the test. */
async function failure(call: PromiseLike<unknown>): Promise<Record<string, unknown>> {
  try {
    await call;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('expected the call to fail');
}

describe('an operation function without checks', () => {
  it('sends what it is given and lets the service check it', async () => {
    rig.server.respond('POST', '/browsers/br_1/computer/type', {
      status: 400,
      json: {
        code: 'bad_request',
        message: 'invalid body',
        details: [{ code: 'invalid_input', message: 'delay: must be >= 0' }],
      },
    });
    const error = await failure(typeText(core(), { id: 'br_1', text: 'hi', delay: -1 }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.details).toEqual([{ code: 'invalid_input', message: 'delay: must be >= 0' }]);
    expect(JSON.parse(rig.server.calls[0]?.body.toString() ?? '')).toEqual({
      text: 'hi',
      delay: -1,
    });
  });

  it('still refuses what cannot make a request, sending nothing', async () => {
    const refusals = [
      getBrowserPool(core(), 'checkout' as never),
      getBrowserPool(core(), {} as never),
      getBrowserPool(core(), { id_or_name: '..' }),
      getBrowserPool(core(), { id_or_name: 7 } as never),
      getBrowserPool(core(), { id_or_name: 'checkout', verbose: true } as never),
    ];
    const messages = [];
    for (const refusal of refusals) {
      const error = await failure(refusal);
      expect(error).toBeInstanceOf(InputValidationError);
      messages.push((error.details as { message: string }[])[0]?.message);
    }
    expect(messages).toEqual([
      'input must be an object',
      'id_or_name: must be a non-empty string',
      'id_or_name: must be a non-empty string',
      'id_or_name: must be a non-empty string',
      'verbose: is not a known field',
    ]);
    const content = await failure(
      writeFile(core(), { id: 'br_1', path: '/tmp/a', content: 'text' as never }),
    );
    expect(content).toBeInstanceOf(InputValidationError);
    expect(rig.server.calls).toHaveLength(0);
  });

  it('gives the answer as it came, without checking it against the schema', async () => {
    const odd = { ...samples.pool, available_count: 'two' };
    rig.server.respond('GET', '/browser_pools/checkout', { status: 200, json: odd });
    await expect(getBrowserPool(core(), { id_or_name: 'checkout' })).resolves.toEqual(odd);
  });

  it('adds the server’s own time to the time-out from the body as sent, defaults included', async () => {
    // An acquire with no body waits up to the default 30 s on the server: an attempt time-out of
    // 100 ms must not cut it off; a plain GET that takes as long is cut off.
    rig.server.respond('POST', '/browser_pools/checkout/acquire', {
      status: 200,
      json: samples.session,
      delayMs: 300,
    });
    rig.server.respond('GET', '/browser_pools/checkout', {
      status: 200,
      json: samples.pool,
      delayMs: 300,
    });
    const quick = createCore({
      baseUrl: rig.server.url,
      token: 'tok_test',
      timeout: 100,
      maxRetries: 0,
    });
    await expect(acquireBrowser(quick, { id_or_name: 'checkout' })).resolves.toMatchObject({
      status: 200,
    });
    await expect(getBrowserPool(quick, { id_or_name: 'checkout' })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });

  it('uploads files as bracketed parts, files as file parts, without a schema', async () => {
    rig.server.respond('POST', '/browsers/br_1/fs/upload', { status: 201 });
    await uploadFiles(core(), {
      id: 'br_1',
      files: [{ dest_path: '/tmp/a.txt', file: new Blob(['alpha']) }],
    });
    const body = rig.server.calls[0]?.body.toString() ?? '';
    expect(body).toContain('name="files[0][dest_path]"\r\n\r\n/tmp/a.txt');
    expect(body).toMatch(/name="files\[0\]\[file\]"; filename="file"[\s\S]*alpha/);
  });
});

describe('checked', () => {
  it('checks the input before anything is sent, as a client method does', async () => {
    const type = checked(typeText, typeTextOperation);
    const error = await failure(type(core(), { id: 'br_1', text: 'hi', delay: -1 }));
    expect(error).toBeInstanceOf(InputValidationError);
    expect(error.message).toContain('delay');
    expect(rig.server.calls).toHaveLength(0);
  });

  it('checks the answer, and gives the schema’s output', async () => {
    const get = checked(getBrowserPool, getBrowserPoolOperation);
    rig.server.respond(
      'GET',
      '/browser_pools/checkout',
      { status: 200, json: { ...samples.pool, available_count: 'two' } },
      { status: 200, json: samples.pool },
    );
    await expect(get(core(), { id_or_name: 'checkout' })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
    await expect(get(core(), { id_or_name: 'checkout' })).resolves.toEqual(samples.pool);
  });

  it('checks every page of a list, and each event of a stream', async () => {
    const list = checked(listInvocations, listInvocationsOperation);
    rig.server.respond('GET', '/invocations', { status: 200, json: [{ id: 'inv_1' }] });
    await expect(list(core())).rejects.toBeInstanceOf(ResponseValidationError);

    const events = checked(watchEvents, watchEventsOperation);
    rig.server.respond('GET', '/browsers/br_1/fs/watch/w_1/events', (_call, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: {"type":"EXPLODE"}\n\n');
    });
    const stream = await events(core(), { id: 'br_1', watch_id: 'w_1' });
    const read = async () => {
      for await (const _ of stream);
    };
    await expect(read()).rejects.toBeInstanceOf(ResponseValidationError);
    // Unchecked, the same event comes through as sent.
    const plain = await watchEvents(core(), { id: 'br_1', watch_id: 'w_1' });
    const received = [];
    for await (const event of plain) received.push(event);
    expect(received).toEqual([{ type: 'EXPLODE' }]);
  });

  it('refuses an operation that is not the function’s own', () => {
    expect(() => checked(getBrowserPool as never, acquireBrowserOperation)).toThrow(
      /expected the function of browserPools.acquire, got browserPools.get/,
    );
    expect(() => checked((() => undefined) as never, getBrowserPoolOperation)).toThrow(
      /got another function/,
    );
  });
});
