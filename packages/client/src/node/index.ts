import { createWriteStream, openAsBlob } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Core, createCore as createBaseCore } from '../client/core.js';
import { type Client, createClient as createBaseClient } from '../client/create-client.js';
import { type ClientOptions, LOG_LEVELS, type LogLevel } from '../client/options.js';
import { ConfigurationError } from '../errors/x-error.js';
import type { BinaryBody } from '../streams/binary-body.js';

/**
 * Creates a client in Node: `token`, `baseUrl` and `project` fall back to the `XB_TOKEN`,
 * `XB_BASE_URL` and `XB_PROJECT` environment variables. A missing token is an error here, not a 401 later.
 */
export function createClient(options: Partial<ClientOptions> = {}): Client {
  return createBaseClient(fromEnvironment(options));
}

/** Like `createCore`, with the same fall-backs to the environment as `createClient`. */
export function createCore(options: Partial<ClientOptions> = {}): Core {
  return createBaseCore(fromEnvironment(options));
}

/**
 * Options with `token`, `baseUrl`, `project` and `logLevel` taken from the environment when not
 * given.
 */
function fromEnvironment(options: Partial<ClientOptions>): ClientOptions {
  const level = process.env.XB_LOG?.trim().toLowerCase();
  if (level && !LOG_LEVELS.includes(level as LogLevel)) {
    throw new ConfigurationError(
      `XB_LOG must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(process.env.XB_LOG)}.`,
    );
  }
  const settings: ClientOptions = {
    ...options,
    token: options.token ?? process.env.XB_TOKEN ?? '',
    baseUrl: options.baseUrl ?? process.env.XB_BASE_URL ?? '',
  };
  const project = options.project ?? process.env.XB_PROJECT?.trim();
  if (project) settings.project = project;
  if (options.logLevel === undefined && level) settings.logLevel = level as LogLevel;
  // The main entry's checks follow; these name the variables as well.
  if (typeof settings.token !== 'string' || settings.token.trim() === '') {
    throw new ConfigurationError('No API token: pass `token` or set XB_TOKEN.');
  }
  if (!URL.canParse(settings.baseUrl)) {
    throw new ConfigurationError(
      `No valid base URL: pass \`baseUrl\` or set XB_BASE_URL (got ${JSON.stringify(settings.baseUrl)}).`,
    );
  }
  return settings;
}

/**
 * A file on disk as an upload source. It is read as it is sent, never held in memory whole.
 */
export async function fileFromPath(path: string, type = ''): Promise<File> {
  const blob = await openAsBlob(path, { type });
  return new File([blob], basename(path), { type });
}

/**
 * Writes a binary response to a file as it arrives. The bytes go to a temporary file first, so
 * a failed or aborted download never leaves a partial file at `path`.
 */
export async function saveToFile(body: BinaryBody, path: string): Promise<number> {
  const partial = `${path}.${process.pid}.partial`;
  let written = 0;
  const counted = Readable.fromWeb(body.stream as import('node:stream/web').ReadableStream);
  counted.on('data', (chunk: Buffer) => {
    written += chunk.byteLength;
  });
  try {
    await pipeline(counted, createWriteStream(partial, { mode: 0o644 }));
    await rename(partial, path);
    return written;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
