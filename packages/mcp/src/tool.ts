import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@x/client';
import type { z } from 'zod';

/** What a tool call gets besides its arguments. */
export interface ToolContext {
  /** The client every call goes through, with the caller's own token. */
  readonly client: Client;
  /** Aborts when the MCP client cancels the call or goes away: every API call takes it. */
  readonly signal: AbortSignal;
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
  readonly input: TShape;
  run(args: z.infer<z.ZodObject<TShape>>, context: ToolContext): Promise<CallToolResult>;
}

/** Defines a tool, keeping its input's type for `run`. */
export function defineTool<TShape extends z.ZodRawShape>(
  tool: ToolDefinition<TShape>,
): ToolDefinition<TShape> {
  return tool;
}
