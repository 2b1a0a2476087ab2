import type { z } from 'zod';

import type { McpToolName } from '../mcp-options';
import type { ToolContext } from './tool-context';

/** One MCP tool, independent of the SDK: its input schema and what it does. */
export interface McpTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: McpToolName;
  readonly description: string;
  /** Reads only (an MCP annotation clients use to skip confirmations). */
  readonly readOnly: boolean;
  /** The input's fields; `collectionNames` become the enum of every `collectionName`. */
  input(collectionNames: readonly string[]): Shape;
  /** Runs the call; the result is sent to the model as JSON text. */
  run(input: z.objectOutputType<Shape, z.ZodTypeAny>, context: ToolContext): Promise<unknown>;
}

/** Declares a tool with its input type inferred from its shape. */
export function defineTool<Shape extends z.ZodRawShape>(tool: McpTool<Shape>): McpTool {
  return tool as unknown as McpTool;
}
