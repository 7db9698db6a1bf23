import { BrowserPoolConfigSchema, BrowserPoolSchema } from '../browser-pools/browser-pool.js';
import { BrowserSessionSchema } from '../browsers/browser-session.js';
import { ViewportSchema } from '../browsers/viewport.js';
import { ErrorDetailSchema, ErrorSchema } from '../errors/error-body.js';
import { ExtensionSchema } from '../extensions/extension.js';
import { WatchEventSchema, WatchSchema } from '../fs-watch/watch.js';
import { InvocationSchema } from '../invocations/invocation.js';
import {
  ExecResultSchema,
  ProcessOutputEventSchema,
  SpawnedProcessSchema,
} from '../processes/process-commands.js';
import { ProcessStatusSchema } from '../processes/process-status.js';
import { ReplaySchema } from '../replays/replay.js';

/** The records that appear in the OpenAPI document as named components, by component name. */
export const componentSchemas = {
  Error: ErrorSchema,
  ErrorDetail: ErrorDetailSchema,
  BrowserPool: BrowserPoolSchema,
  BrowserPoolConfig: BrowserPoolConfigSchema,
  BrowserSession: BrowserSessionSchema,
  Viewport: ViewportSchema,
  Extension: ExtensionSchema,
  ProcessStatus: ProcessStatusSchema,
  SpawnedProcess: SpawnedProcessSchema,
  ExecResult: ExecResultSchema,
  ProcessOutputEvent: ProcessOutputEventSchema,
  Replay: ReplaySchema,
  Invocation: InvocationSchema,
  Watch: WatchSchema,
  WatchEvent: WatchEventSchema,
};
