/**
 * Who signed in to an agent (docs/agent-http-protocol.md §3.2): the claims of the agent's session
 * token, which agent-core signs and answers with its login callback, and front ends read.
 */

/** The permission levels an agent's session carries. */
export const SESSION_PERMISSION_LEVELS = ['admin', 'developer', 'editor', 'user'] as const;

/** One of them. */
export type SessionPermissionLevel = (typeof SESSION_PERMISSION_LEVELS)[number];

/** A user's identity in an agent's session (and in its MCP access tokens). */
export interface SessionIdentity {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  team: string;
  role: string;
  permissionLevel: SessionPermissionLevel;
  renderingId: number;
  tags: Record<string, string>;
}

/**
 * The answer of `GET /forest/authentication/callback`: the token and its decoded payload (which
 * also holds the registered claims `typ`, `aud`, `iss` and `jti`).
 */
export interface AuthenticationCallbackAnswer {
  token: string;
  tokenData: SessionIdentity & { iat: number; exp: number };
}
