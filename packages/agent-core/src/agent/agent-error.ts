/** Stable codes of {@link AgentError}. */
export type AgentErrorCode =
  | 'INVALID_AGENT_OPTIONS'
  | 'SERVER_URL_MISSING'
  | 'AGENT_ALREADY_STARTED'
  | 'AGENT_NOT_STARTED'
  | 'AGENT_ALREADY_MOUNTED'
  | 'AGENT_START_FAILED';

/**
 * An error of the agent's lifecycle (options, start, stop). A local error: it never
 * reaches an HTTP response. Check it by {@link AgentError.code} (see {@link isAgentError}).
 */
export class AgentError extends Error {
  readonly code: AgentErrorCode;

  constructor(code: AgentErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * Whether `error` is an {@link AgentError}, optionally with a given code. Compares by name and
 * code, so it also recognises errors from another installed copy of the package.
 *
 * @example
 * try { await agent.start(); } catch (error) {
 *   if (isAgentError(error, 'SERVER_URL_MISSING')) console.error('Set CANOPY_SERVER_URL');
 * }
 */
export function isAgentError(error: unknown, code?: AgentErrorCode): error is AgentError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as Partial<AgentError>;
  if (candidate.name !== 'AgentError' && candidate.name !== 'AgentOptionsError') return false;
  if (typeof candidate.code !== 'string') return false;
  return code === undefined || candidate.code === code;
}
