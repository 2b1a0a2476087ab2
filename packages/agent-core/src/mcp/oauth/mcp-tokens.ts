import jwt from 'jsonwebtoken';

import {
  AgentTokenRefusal,
  signAgentToken,
  verifyAgentToken,
} from '../../protocol/auth/agent-tokens';
import type { SessionClaims } from '../../operations/session-claims';
import type { AuthenticatedUser } from '../../platform/agent-services';
import { callerIdentity } from '../../toolkit/caller';
import { OAuthFailure } from './oauth-failure';
import { sealSecret, unsealSecret } from './sealed-secret';

/** The scopes an MCP token may carry (platform protocol §16.3). */
export const MCP_SCOPES = ['mcp:read', 'mcp:write', 'mcp:action', 'mcp:admin'] as const;
/** The scopes a token gets when the platform names none, and those the 401 challenge asks for. */
export const DEFAULT_SCOPES = ['mcp:read', 'mcp:write', 'mcp:action'] as const;

/**
 * Claims of the MCP access token (`typ: "mcp-access"`, `aud: "canopy-agent-mcp"`): the user's
 * identity claims of the session token, plus the snake_case copies of the reference and the
 * scopes. Its `typ` and `aud` differ from the session token's, so the REST routes refuse it. The platform's access
 * token travels encrypted (`platformToken`, see {@link sealSecret}); `serverToken` is its clear
 * value, present only in the claims {@link verifyAccessToken} returns on the agent side.
 * (`tags` stays an object, as the agent's session check requires.)
 */
export interface McpAccessClaims extends SessionClaims {
  first_name: string;
  last_name: string;
  permission_level: string;
  rendering_id: string;
  serverToken: string;
  scopes: string[];
  clientId: string;
}

/**
 * Claims of the MCP refresh token, as {@link verifyRefreshToken} returns them: the platform's
 * refresh token travels encrypted (`platformRefreshToken`) and `serverRefreshToken` is its clear
 * value on the agent side.
 */
export interface McpRefreshClaims {
  type: 'refresh';
  clientId: string;
  /** The scopes granted at login: a refresh may narrow them, never widen them. */
  scopes: string[];
  userId: number;
  renderingId: number;
  serverRefreshToken: string;
  /** Seconds since the epoch of the interactive login; carried across refreshes. */
  sessionStartedAt: number;
  iat?: number;
  exp?: number;
}

/** The platform's answer to `POST /oauth/token` (platform protocol §10). */
export interface PlatformTokens {
  access_token: string;
  refresh_token: string;
  scope?: string;
}

/** Lifetime caps of the issued tokens (`null`: no cap). */
export interface TokenLimits {
  accessTokenSeconds: number | null;
  refreshTokenSeconds: number | null;
}

/** What the MCP client receives. */
export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** What an MCP access token grants on top of the user's session claims. */
export interface McpGrant {
  /** The user's platform access token; it travels sealed, so that only the agent can read it. */
  platformToken: string;
  /** The granted scopes (`mcp:read`, `mcp:write`, `mcp:action`, `mcp:admin`). */
  scopes: readonly string[];
  /** The OAuth client the token was issued to. */
  clientId: string;
}

/**
 * Signs an MCP access token as the agent's OAuth endpoints issue it (platform protocol §16.4):
 * the user's session claims (any `iat`/`exp` are dropped), the sealed platform token, the scopes
 * and the client id, valid `expiresInSeconds`.
 *
 * @example
 * const claims = verifySessionToken(sessionToken, authSecret);
 * const token = signMcpAccessToken(
 *   claims,
 *   { platformToken: sessionToken, scopes: ['mcp:read'], clientId: 'my-client' },
 *   authSecret,
 *   600,
 * );
 */
export function signMcpAccessToken(
  claims: Omit<SessionClaims, 'iat' | 'exp'> & { iat?: number; exp?: number },
  grant: McpGrant,
  authSecret: string,
  expiresInSeconds: number,
): string {
  const payload = {
    ...claims,
    platformToken: sealSecret(grant.platformToken, authSecret),
    scopes: [...grant.scopes],
    clientId: grant.clientId,
  };
  return signAgentToken('mcpAccess', payload, authSecret, expiresInSeconds);
}

function decodePlatformToken(token: string, which: string): Record<string, unknown> {
  const payload = jwt.decode(token);
  if (!payload || typeof payload !== 'object' || typeof payload.exp !== 'number') {
    throw new OAuthFailure(
      'server_error',
      `The platform's ${which} token is not a JWT with an exp claim.`,
    );
  }
  return payload as Record<string, unknown>;
}

/**
 * Issues the MCP token pair from the platform's tokens and the user (platform protocol §16.4):
 * lifetimes are the smallest of the platform token's remaining life, the session window and the
 * configured cap.
 */
export function issueTokens(
  platform: PlatformTokens,
  user: AuthenticatedUser,
  clientId: string,
  sessionStartedAt: number,
  limits: TokenLimits,
  authSecret: string,
  grantedScopes: readonly string[] | null = null,
): IssuedTokens {
  const now = Math.floor(Date.now() / 1000);
  const access = decodePlatformToken(platform.access_token, 'access');
  const refresh = decodePlatformToken(platform.refresh_token, 'refresh');
  const sessionLeft =
    limits.refreshTokenSeconds === null
      ? Number.POSITIVE_INFINITY
      : sessionStartedAt + limits.refreshTokenSeconds - now;
  const accessLife = Math.floor(
    Math.min((access.exp as number) - now, sessionLeft, limits.accessTokenSeconds ?? Infinity),
  );
  const refreshLife = Math.floor(Math.min((refresh.exp as number) - now, sessionLeft));
  if (accessLife <= 0 || refreshLife <= 0) {
    throw new OAuthFailure('invalid_grant', 'The session has expired: log in again.');
  }
  const scopeText =
    typeof access.scope === 'string' && access.scope ? access.scope : platform.scope;
  const answered = scopeText ? scopeText.split(/[ +]/).filter(Boolean) : [...DEFAULT_SCOPES];
  // A refresh narrows: whatever the platform answers, never more than the login granted.
  const scopes = grantedScopes
    ? answered.filter((scope) => grantedScopes.includes(scope))
    : answered;
  const claims: Omit<McpAccessClaims, 'iat' | 'exp' | 'serverToken' | 'scopes' | 'clientId'> = {
    ...callerIdentity(user),
    first_name: user.firstName,
    last_name: user.lastName,
    permission_level: user.permissionLevel,
    rendering_id: String(user.renderingId),
  };
  const refreshClaims: Omit<McpRefreshClaims, 'iat' | 'exp' | 'serverRefreshToken'> & {
    platformRefreshToken: string;
  } = {
    type: 'refresh',
    clientId,
    scopes,
    userId: user.id,
    renderingId: user.renderingId,
    platformRefreshToken: sealSecret(platform.refresh_token, authSecret),
    sessionStartedAt,
  };
  return {
    access_token: signMcpAccessToken(
      claims,
      { platformToken: platform.access_token, scopes, clientId },
      authSecret,
      accessLife,
    ),
    token_type: 'Bearer',
    expires_in: accessLife,
    refresh_token: signAgentToken('mcpRefresh', refreshClaims, authSecret, refreshLife),
    scope: scopes.join(' '),
  };
}

/**
 * Verifies an MCP refresh token (`typ: "mcp-refresh"`, `aud: "canopy-agent-oauth"`); any failure
 * is `invalid_grant`, saying so when the token is another kind of agent token.
 */
export function verifyRefreshToken(token: string, authSecret: string): McpRefreshClaims {
  let payload: unknown;
  try {
    payload = verifyAgentToken('mcpRefresh', token, authSecret);
  } catch (error) {
    throw new OAuthFailure(
      'invalid_grant',
      error instanceof AgentTokenRefusal && error.reason === 'wrong-kind'
        ? `Not a refresh token: ${error.message}.`
        : 'The refresh token is invalid or expired.',
    );
  }
  const claims = payload as Partial<McpRefreshClaims> & { platformRefreshToken?: unknown };
  const serverRefreshToken = unsealSecret(claims.platformRefreshToken, authSecret);
  if (
    claims.type !== 'refresh' ||
    typeof claims.clientId !== 'string' ||
    !Array.isArray(claims.scopes) ||
    serverRefreshToken === null ||
    typeof claims.sessionStartedAt !== 'number'
  ) {
    throw new OAuthFailure('invalid_grant', 'The token is not an MCP refresh token.');
  }
  return { ...(claims as McpRefreshClaims), serverRefreshToken };
}

/**
 * Verifies an MCP access token (HS256 with the auth secret, `exp` required, `typ: "mcp-access"`
 * and `aud: "canopy-agent-mcp"`: session and refresh tokens are refused). Returns the claims, or
 * why the token is refused: a sentence for the `invalid_token` answer.
 */
export function checkAccessToken(token: string, authSecret: string): McpAccessClaims | string {
  let payload: unknown;
  try {
    payload = verifyAgentToken('mcpAccess', token, authSecret);
  } catch (error) {
    return error instanceof AgentTokenRefusal && error.reason === 'wrong-kind'
      ? `Not an MCP access token: ${error.message}; log in through the MCP OAuth flow to get one.`
      : INVALID_ACCESS_TOKEN;
  }
  const claims = payload as Partial<McpAccessClaims> & { platformToken?: unknown };
  const serverToken = unsealSecret(claims.platformToken, authSecret);
  if (
    serverToken === null ||
    typeof claims.exp !== 'number' ||
    typeof claims.id !== 'number' ||
    typeof claims.renderingId !== 'number' ||
    !Array.isArray(claims.scopes)
  ) {
    return INVALID_ACCESS_TOKEN;
  }
  return { ...(claims as McpAccessClaims), serverToken };
}

const INVALID_ACCESS_TOKEN = 'The access token is invalid or expired.';

/** {@link checkAccessToken} without the reason: `null` when the token is refused. */
export function verifyAccessToken(token: string, authSecret: string): McpAccessClaims | null {
  const checked = checkAccessToken(token, authSecret);
  return typeof checked === 'string' ? null : checked;
}
