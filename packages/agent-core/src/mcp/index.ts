// The MCP server of the agent (`agent.mountAiMcpServer`): options, tool names, errors.
export {
  DEFAULT_MCP_SERVER_PORT,
  MCP_TOOL_NAMES,
  type McpServerOptions,
  type McpToolName,
} from './mcp-options';
export { McpError, isMcpError, type McpErrorCode } from './mcp-error';
// MCP access tokens as the agent's OAuth endpoints issue them (for clients that mint tokens
// themselves, such as the demo and tests).
export { signMcpAccessToken, type McpGrant } from './oauth/mcp-tokens';
