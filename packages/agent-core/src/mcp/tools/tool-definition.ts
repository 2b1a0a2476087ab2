import type { z } from 'zod';

import type { McpToolName } from '../mcp-options';
import type { ToolContext } from './tool-context';

/** The token scope a tool needs (platform protocol §16.3); `mcp:admin` grants every one. */
export type McpToolScope = 'mcp:read' | 'mcp:write' | 'mcp:action';

/** One MCP tool, independent of the SDK: its input schema and what it does. */
export interface McpTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: McpToolName;
  readonly description: string;
  /** Reads only (MCP annotation `readOnlyHint`; clients use it to skip confirmations). */
  readonly readOnly: boolean;
  /** May delete or overwrite data (MCP annotation `destructiveHint`; meaningful when not read-only). */
  readonly destructive: boolean;
  /** Calling it twice with the same arguments has no further effect (`idempotentHint`). */
  readonly idempotent: boolean;
  /**
   * Reaches beyond the agent's data sources (`openWorldHint`): only actions, whose code may call
   * any service.
   */
  readonly openWorld: boolean;
  /** The scope the access token must carry for a call (refused with a tool error otherwise). */
  readonly scope: McpToolScope;
  /** The input's fields; `collectionNames` become the enum of every `collectionName`. */
  input(collectionNames: readonly string[]): Shape;
  /** Runs the call; the result is sent to the model as JSON text. */
  run(input: z.objectOutputType<Shape, z.ZodTypeAny>, context: ToolContext): Promise<unknown>;
}

/** Declares a tool with its input type inferred from its shape. */
export function defineTool<Shape extends z.ZodRawShape>(tool: McpTool<Shape>): McpTool {
  return tool as unknown as McpTool;
}

/** Whether granted scopes allow a tool: its own scope, or `mcp:admin`. */
export function isToolAllowed(tool: McpTool, scopes: readonly string[]): boolean {
  return scopes.includes(tool.scope) || scopes.includes('mcp:admin');
}

/** The MCP annotations of a tool (every hint set, none left to the client's default). */
export function toolAnnotations(tool: McpTool): {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
} {
  return {
    title: tool.name,
    readOnlyHint: tool.readOnly,
    destructiveHint: tool.destructive,
    idempotentHint: tool.idempotent,
    openWorldHint: tool.openWorld,
  };
}
