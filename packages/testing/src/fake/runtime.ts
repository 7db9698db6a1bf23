import type { IdGenerator } from '@x/service-kernel';
import type { Clock } from '../common/clock.js';
import type { ProcessScriptSource } from './processes.js';
import type { FakeState } from './state.js';

/** The fake's settings, with defaults applied. */
export interface FakeSettings {
  /** Tokens allowed to do everything. */
  readonly tokens: ReadonlySet<string>;
  /** Tokens allowed to read only: 403 on acting operations. */
  readonly readOnlyTokens: ReadonlySet<string>;
  /** Most live browsers at once; one more is 429 with Retry-After. */
  readonly maxBrowsers: number;
  /** Whether process operations run (otherwise 403, as when an operator turns them off). */
  readonly isProcessExecutionEnabled: boolean;
  /** Events a watch holds for a slow reader before it counts them as lost. */
  readonly watchBufferSize: number;
  /** Signs the session URLs' jwts. */
  readonly jwtSecret: string;
}

/** The state and the parts every handler of the fake shares. */
export interface FakeRuntime {
  readonly state: FakeState;
  readonly settings: FakeSettings;
  readonly clock: Clock;
  readonly nextId: IdGenerator;
  /** Process ids as the instance's kernel would hand them out. */
  readonly nextPid: () => number;
  /** Scripts for commands, by command name; they take precedence over the built-in commands. */
  readonly scripts: Map<string, ProcessScriptSource>;
}
