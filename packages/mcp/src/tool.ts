import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions, Client } from '@x/client';
import { z } from 'zod';

/** What a tool call gets besides its arguments. */
export interface ToolContext {
  /** The client every call goes through, with the caller's own token. */
  readonly client: Client;
  /** Aborts when the MCP client cancels the call or goes away: every API call takes it. */
  readonly signal: AbortSignal;
  /**
   * What every API call of the tool takes: the signal, and the project the caller named in
   * `project` (as the call's `X-Kernel-Project-Id`) for a tool that acts in a project.
   */
  readonly call: CallOptions;
  /** Characters of text one answer may carry before it is cut (and says so). */
  readonly maxTextChars: number;
}

/** One MCP tool: its name, what a model reads about it, its input and what it does. */
export interface ToolDefinition<TShape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  /** For a model: what it does, when to use it, what it returns. */
  readonly description: string;
  /** True to every action the tool takes (a tool that can delete is destructive). */
  readonly annotations: ToolAnnotations;
  /**
   * Whether it acts in one project (browsers, pools, credentials, …): the server then adds the
   * optional `project` input, id or name, and sends it with each of its API calls. Tools over
   * the organization (projects, API keys, credential providers) take none.
   */
  readonly projectScoped?: boolean;
  readonly input: TShape;
  run(args: z.infer<z.ZodObject<TShape>>, context: ToolContext): Promise<CallToolResult>;
}

/** Defines a tool, keeping its input's type for `run`. */
export function defineTool<TShape extends z.ZodRawShape>(
  tool: ToolDefinition<TShape>,
): ToolDefinition<TShape> {
  return tool;
}

/** The `session_id` input of a tool that acts on one browser. */
export const sessionIdInput = z
  .string()
  .describe("the browser's session_id, as manage_browsers create or list gives it");
