import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerConfig } from '../config.js';

/** The server's tokens, and the one it generated on a first start, if it did. */
export interface ResolvedTokens {
  /** Changed in place when a tokens file changes. */
  readonly tokens: Set<string>;
  readonly readOnlyTokens: Set<string>;
  /** A token made now because none was configured: printed once, kept in the data directory. */
  readonly generated: string | undefined;
}

/**
 * The tokens in force: `XB_TOKENS` (and a tokens file's, which the server then follows) when
 * either is set; otherwise the token kept in `<data dir>/token`, generated (and returned to be
 * said once) on the first start.
 */
export function resolveTokens(config: ServerConfig): ResolvedTokens {
  const readOnlyTokens = new Set(config.readOnlyTokens);
  if (config.tokens.length > 0 || config.tokensFile !== undefined)
    return { tokens: new Set(config.tokens), readOnlyTokens, generated: undefined };
  const path = join(config.dataDir, 'token');
  if (existsSync(path))
    return {
      tokens: new Set([readFileSync(path, 'utf8').trim()]),
      readOnlyTokens,
      generated: undefined,
    };
  const token = `xb_${randomBytes(24).toString('base64url')}`;
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  return { tokens: new Set([token]), readOnlyTokens, generated: token };
}
