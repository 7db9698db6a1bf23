import {
  type BrowserPool,
  type BrowserSession,
  getBrowserPoolOperation,
  type ProcessStatus,
  type WatchEvent,
} from '@x/types';
import { describe, expectTypeOf, it } from 'vitest';
import { getBrowserPool } from '../areas/index.js';
import { checked } from '../calls/checked.js';
import type { BinaryBody } from '../streams/binary-body.js';
import type { EventStream } from '../streams/event-stream.js';
import type { CallPromise } from './call-promise.js';
import { createCore } from './core.js';
import type { Client } from './create-client.js';

declare const client: Client;

describe('client method types', () => {
  it('types the seven operations of the interface description', () => {
    expectTypeOf(client.browserPools.get).parameter(0).toEqualTypeOf<{ id_or_name: string }>();
    expectTypeOf(client.browserPools.get({ id_or_name: 'x' })).toEqualTypeOf<
      CallPromise<BrowserPool>
    >();
    expectTypeOf(client.browsers.computer.type)
      .parameter(0)
      .toEqualTypeOf<{ id: string; text: string; delay?: number | undefined }>();
    expectTypeOf(client.browsers.computer.type({ id: 'b', text: 'x' })).toEqualTypeOf<
      CallPromise<undefined>
    >();
    expectTypeOf(client.browsers.process.status({ id: 'b', process_id: 'p' })).toEqualTypeOf<
      CallPromise<ProcessStatus>
    >();
    expectTypeOf(client.invocations.listBrowsers({ id: 'i' })).toEqualTypeOf<
      CallPromise<{ browsers: BrowserSession[] }>
    >();
    expectTypeOf(client.browsers.replays.stop).toBeFunction();
    expectTypeOf(client.extensions.upload).toBeFunction();
    expectTypeOf(client.browsers.fs.watch.stop).toBeFunction();
  });

  it('types the computer controls from their schemas', () => {
    expectTypeOf(client.browsers.computer.clickMouse).parameter(0).toEqualTypeOf<{
      id: string;
      x: number;
      y: number;
      button?: 'left' | 'right' | 'middle' | 'back' | 'forward' | undefined;
      click_type?: 'down' | 'up' | 'click' | undefined;
      num_clicks?: number | undefined;
      hold_keys?: string[] | undefined;
    }>();
    expectTypeOf(client.browsers.computer.clickMouse({ id: 'b', x: 1, y: 2 })).toEqualTypeOf<
      CallPromise<undefined>
    >();
    expectTypeOf(client.browsers.computer.getMousePosition({ id: 'b' })).toEqualTypeOf<
      CallPromise<{ x: number; y: number }>
    >();
    expectTypeOf(client.browsers.computer.readClipboard({ id: 'b' })).toEqualTypeOf<
      CallPromise<{ text: string }>
    >();
  });

  it('types acquire as acquired or timed out, not null', () => {
    expectTypeOf(client.browserPools.acquire({ id_or_name: 'p' })).toEqualTypeOf<
      CallPromise<{ status: 200; value: BrowserSession } | { status: 204; value: undefined }>
    >();
  });

  it('types streams and binaries', () => {
    expectTypeOf(client.browsers.fs.watch.events({ id: 'b', watch_id: 'w' })).toEqualTypeOf<
      CallPromise<EventStream<WatchEvent>>
    >();
    expectTypeOf(client.browsers.computer.screenshot({ id: 'b' })).toEqualTypeOf<
      CallPromise<BinaryBody>
    >();
  });

  it('lets inputs that are all optional be left out, and no others', () => {
    expectTypeOf(client.browsers.list).toBeCallableWith();
    expectTypeOf(client.browsers.create).toBeCallableWith();
    // @ts-expect-error: a browser id is required
    client.browsers.get();
    // @ts-expect-error: unknown field
    client.browsers.get({ id: 'b', nope: 1 });
  });
});

describe('operation functions', () => {
  it('type their input and answer as the methods do', () => {
    const core = createCore({ baseUrl: 'http://127.0.0.1:1', token: 't' });
    expectTypeOf(getBrowserPool(core, { id_or_name: 'p' })).toEqualTypeOf<
      CallPromise<BrowserPool>
    >();
    // @ts-expect-error: a pool is named
    getBrowserPool(core);
  });

  it('keep their type through checked (another operation is refused when called: checked.test.ts)', () => {
    expectTypeOf(checked(getBrowserPool, getBrowserPoolOperation)).toEqualTypeOf(getBrowserPool);
    // @ts-expect-error: not an operation function
    checked((x: number) => x, getBrowserPoolOperation);
  });
});
