// The MCP tools (platform protocol §16.6), independent of the SDK that serves them.
import type { McpToolName } from '../mcp-options';
import { executeActionTool, getActionFormTool } from './action-tools';
import { describeCollectionTool } from './describe-collection';
import { listRelatedTool, listTool } from './read-tools';
import { associateTool, dissociateTool } from './relation-tools';
import type { McpTool } from './tool-definition';
import { uploadActionFileTool } from './upload-tool';
import { createTool, deleteTool, updateTool } from './write-tools';

/** Every tool, in the order `tools/list` shows them. */
export const MCP_TOOLS: readonly McpTool[] = [
  describeCollectionTool,
  listTool,
  listRelatedTool,
  createTool,
  updateTool,
  deleteTool,
  associateTool,
  dissociateTool,
  getActionFormTool,
  executeActionTool,
  uploadActionFileTool,
];

/** The tools whose names are enabled. */
export function enabledTools(names: ReadonlySet<McpToolName>): McpTool[] {
  return MCP_TOOLS.filter((tool) => names.has(tool.name));
}

export { type McpTool, type McpToolScope, isToolAllowed, toolAnnotations } from './tool-definition';
export { UploadStore } from './upload-store';
export { type ToolContext, ToolError } from './tool-context';
