/** Stable codes of {@link McpError}. */
export type McpErrorCode =
  /** `mountAiMcpServer` options or `CANOPY_MCP_ENABLED_TOOLS` / `MCP_SERVER_PORT` are invalid. */
  | 'INVALID_MCP_OPTIONS'
  /** `mountAiMcpServer` was called twice. */
  | 'MCP_ALREADY_MOUNTED'
  /** The agent did not answer an in-process tool call in time. */
  | 'MCP_DISPATCH_TIMEOUT';

/**
 * A local error of the MCP server (options, mounting, dispatch). It never reaches an HTTP
 * response as such: tool failures become MCP tool errors, OAuth failures OAuth errors. Check it
 * by {@link McpError.code} (see {@link isMcpError}).
 */
export class McpError extends Error {
  readonly code: McpErrorCode;

  constructor(code: McpErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * Whether `error` is an {@link McpError}, optionally with a given code (compared by name, so it
 * also recognises errors from another installed copy of the package).
 *
 * @example
 * try { agent.mountAiMcpServer({ enabledTools: ['lsit'] }); } catch (error) {
 *   if (isMcpError(error, 'INVALID_MCP_OPTIONS')) console.error(error.message);
 * }
 */
export function isMcpError(error: unknown, code?: McpErrorCode): error is McpError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as Partial<McpError>;
  if (candidate.name !== 'McpError' || typeof candidate.code !== 'string') return false;
  return code === undefined || candidate.code === code;
}
