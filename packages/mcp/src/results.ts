import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, type ListPage } from '@x/client';

/** Characters of text one tool answer carries by default, beyond which it is cut and says so. */
export const DEFAULT_MAX_TEXT_CHARS = 25_000;

/**
 * `text`, at most `max` characters: a longer one keeps its start and ends with a line saying how
 * much was cut and how to ask for less, so a model never mistakes a cut answer for a whole one.
 */
export function bounded(text: string, max: number, hint = 'ask for less'): string {
  if (text.length <= max) return text;
  // Never split a surrogate pair: a lone half is not text.
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}\n[cut: the first ${end} of ${text.length} characters are shown; ${hint}]`;
}

/** A text answer, bounded. */
export function textResult(text: string, max: number, hint?: string): CallToolResult {
  return { content: [{ type: 'text', text: bounded(text, max, hint) }] };
}

/** A JSON value as the answer's text (indented, as models read it best), bounded. */
export function jsonResult(value: unknown, max: number, hint?: string): CallToolResult {
  return textResult(JSON.stringify(value, null, 2) ?? 'null', max, hint);
}

/** One page of a list: its records, whether more follow, and the `offset` of the next page. */
export function listResult(page: ListPage<unknown>, max: number): CallToolResult {
  return jsonResult(
    { items: page.items, has_more: page.hasMore, next_offset: page.nextOffset ?? null },
    max,
    'list fewer with `limit`',
  );
}

/** A link the answer carries as an MCP resource: a page a client can open for a person. */
export interface ResourceLink {
  readonly uri: string;
  readonly name: string;
  readonly description: string;
}

/**
 * `result` with `links` after its content, as `resource_link` items (a client lists them as
 * resources to open: a live view, a replay's player).
 */
export function withLinks(result: CallToolResult, links: readonly ResourceLink[]): CallToolResult {
  if (links.length === 0) return result;
  return {
    ...result,
    content: [
      ...result.content,
      ...links.map((link) => ({ type: 'resource_link' as const, mimeType: 'text/html', ...link })),
    ],
  };
}

/** A failed call: `isError` with one clear sentence, which the model reads and can act on. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * A tool's input that the schema lets through but the action refuses (a missing `session_id`
 * for `get`): answered as an `isError` result naming the field and the action.
 */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}

/** `args[field]`, which `action` needs: a ToolInputError when absent. */
export function required<T extends object, K extends keyof T & string>(
  args: T,
  field: K,
  action: string,
): NonNullable<T[K]> {
  const value = args[field];
  if (value === undefined || value === null || value === '') {
    throw new ToolInputError(`"${field}" is required for action "${action}".`);
  }
  return value as NonNullable<T[K]>;
}

/** The fields of `value` that are set. */
export function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== undefined),
  ) as Partial<T>;
}

/** Fields the action does not take: a ToolInputError naming them, never silently dropped. */
export function refuseOthers(fields: Record<string, unknown>, action: string): void {
  const given = Object.keys(defined(fields));
  if (given.length > 0) {
    throw new ToolInputError(
      `Action "${action}" does not take ${given.map((field) => `"${field}"`).join(', ')}.`,
    );
  }
}

/**
 * One sentence for a failure: the service's own words for an API error, with each field it
 * names (a 400's details say which argument is wrong, which a model needs to fix its call).
 */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'AbortError' || error.name === 'TimeoutError') {
    return `the call was stopped (${error.message}).`;
  }
  // The fields the message does not name already (the service names the first few).
  const details = ApiError.isInstance(error)
    ? (error.details ?? [])
        .map((detail) => detail.message)
        .filter((text) => text && !error.message.includes(text))
    : [];
  return details.length > 0
    ? `${error.message.replace(/\.$/, '')}: ${details.join('; ')}`
    : error.message;
}
