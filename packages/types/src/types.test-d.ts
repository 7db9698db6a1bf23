import { describe, expectTypeOf, it } from 'vitest';
import type {
  acquireBrowserOperation,
  BrowserPool,
  BrowserSession,
  ErrorBody,
  Extension,
  getBrowserPoolOperation,
  OperationInput,
  OperationOutcome,
  ProcessStatus,
  TypeTextBody,
  TypeTextInput,
  typeTextOperation,
  uploadExtensionOperation,
  WatchEvent,
} from './index.js';

describe('inferred record types', () => {
  it('BrowserPool has its always-present fields required', () => {
    expectTypeOf<BrowserPool['id']>().toEqualTypeOf<string>();
    expectTypeOf<BrowserPool['name']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<BrowserPool['available_count']>().toEqualTypeOf<number>();
    expectTypeOf<BrowserPool['browser_pool_config']['size']>().toEqualTypeOf<number>();
    expectTypeOf<BrowserPool['browser_pool_config']['chrome_policy']>().toEqualTypeOf<
      Record<string, unknown> | undefined
    >();
  });

  it('ProcessStatus has a nullable exit code and a state', () => {
    expectTypeOf<ProcessStatus['exit_code']>().toEqualTypeOf<number | null>();
    expectTypeOf<ProcessStatus['state']>().toEqualTypeOf<'running' | 'exited'>();
  });

  it('ErrorBody, Extension and BrowserSession have their required fields', () => {
    expectTypeOf<ErrorBody>().toMatchTypeOf<{ code: string; message: string }>();
    expectTypeOf<ErrorBody['details']>().toEqualTypeOf<
      { code?: string; message?: string }[] | undefined
    >();
    expectTypeOf<Extension['size_bytes']>().toEqualTypeOf<number>();
    expectTypeOf<Extension['last_used_at']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<BrowserSession['cdp_ws_url']>().toEqualTypeOf<string>();
    expectTypeOf<BrowserSession['webdriver_ws_url']>().toEqualTypeOf<string | undefined>();
  });

  it('WatchEvent is a tagged union', () => {
    expectTypeOf<WatchEvent['type']>().toEqualTypeOf<
      'CREATE' | 'WRITE' | 'DELETE' | 'RENAME' | 'OVERFLOW'
    >();
  });

  it('TypeText input makes delay optional, the validated body has it', () => {
    expectTypeOf<TypeTextInput>().toEqualTypeOf<{ text: string; delay?: number | undefined }>();
    expectTypeOf<TypeTextBody>().toEqualTypeOf<{ text: string; delay: number }>();
  });
});

describe('operation types', () => {
  it('flattens path params and body fields into one input', () => {
    expectTypeOf<OperationInput<typeof typeTextOperation>>().toEqualTypeOf<{
      id: string;
      text: string;
      delay?: number | undefined;
    }>();
    expectTypeOf<OperationInput<typeof getBrowserPoolOperation>>().toMatchTypeOf<{
      id_or_name: string;
    }>();
    expectTypeOf<OperationInput<typeof uploadExtensionOperation>>().toEqualTypeOf<{
      file: Blob;
      name?: string | undefined;
    }>();
  });

  it('tells acquired (200) from timed out (204) in the outcome', () => {
    type Outcome = OperationOutcome<typeof acquireBrowserOperation>;
    expectTypeOf<Extract<Outcome, { status: 200 }>['value']>().toEqualTypeOf<BrowserSession>();
    expectTypeOf<Extract<Outcome, { status: 204 }>['value']>().toEqualTypeOf<undefined>();
  });
});
