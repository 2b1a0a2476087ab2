/**
 * What every token the platform issues is for: its type (`typ`) and audience (`aud`), which its
 * verifier checks (a token of another type, or for another audience, is refused). The table of
 * the repository's docs/tokens.md lists the same, with issuers, lifetimes and revocation.
 */

/** The platform's own HTTP API (`/v1`, `/liana`, the platform routes agents call for a user). */
export const PLATFORM_API_AUDIENCE = 'canopy-platform-api';
/** The platform's MCP OAuth token endpoint (`POST /oauth/token`), the only taker of MCP refresh tokens. */
export const PLATFORM_OAUTH_AUDIENCE = 'canopy-platform-oauth';

/** The `typ` of each platform token. */
export const TOKEN_TYPES = {
  /** A user's platform session (management API), a signed JWT. */
  session: 'session',
  /** An application token (one project, scopes), a signed JWT. */
  application: 'application',
  /** The Canopy Console's access token (OIDC client `canopy-console`), opaque. */
  consoleAccess: 'console-access',
  /** canopy-cloud's access token (OIDC client `canopy-cloud`, device flow), opaque. */
  cliAccess: 'cli-access',
  /** The access token of a user logged in to an agent (the agent's own OIDC client), opaque. */
  agentLoginAccess: 'agent-login-access',
  /** The access token of an MCP authorization, relayed by the agent's MCP server, a signed JWT. */
  mcpAccess: 'mcp-access',
  /** The refresh token of an MCP authorization, a signed JWT. */
  mcpRefresh: 'mcp-refresh',
} as const;

export type TokenType = (typeof TOKEN_TYPES)[keyof typeof TOKEN_TYPES];
