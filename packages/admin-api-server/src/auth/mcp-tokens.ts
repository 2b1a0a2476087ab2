import jwt from 'jsonwebtoken';
import { PLATFORM_API_AUDIENCE, PLATFORM_OAUTH_AUDIENCE, TOKEN_TYPES } from './token-purposes';
import type { SigningKey } from '../config';

const ALGORITHM = 'HS256';
const ISSUER = 'canopy-admin-api';

/** Lifetimes of the platform tokens of the MCP flow (the reference's: 1 hour, 8 days). */
export const MCP_ACCESS_SECONDS = 3600;
export const MCP_REFRESH_SECONDS = 8 * 24 * 3600;

/** What an MCP platform token grants: a user, on a rendering of an environment, with scopes. */
export interface McpGrant {
  userId: number;
  environmentId: number;
  renderingId: number;
  clientId: string;
  scope: string;
}

/**
 * Issues the access and refresh tokens the agent's MCP server relays: JWTs it can decode (the
 * access token carries `exp`, `scope` and `meta.renderingId`), signed with the newest signing key.
 */
export function issueMcpTokens(keys: readonly SigningKey[], grant: McpGrant) {
  const key = keys[0];
  if (!key) throw new Error('No signing key is configured.');
  const claims = {
    sub: String(grant.userId),
    env: grant.environmentId,
    client_id: grant.clientId,
    scope: grant.scope,
    meta: { renderingId: grant.renderingId },
  };
  const options = { algorithm: ALGORITHM, keyid: key.id, issuer: ISSUER } as const;
  return {
    access_token: jwt.sign({ ...claims, ...MCP_PURPOSES['mcp-access'] }, key.secret, {
      ...options,
      expiresIn: MCP_ACCESS_SECONDS,
    }),
    refresh_token: jwt.sign({ ...claims, ...MCP_PURPOSES['mcp-refresh'] }, key.secret, {
      ...options,
      expiresIn: MCP_REFRESH_SECONDS,
    }),
    expires_in: MCP_ACCESS_SECONDS,
    token_type: 'Bearer',
    scope: grant.scope,
  };
}

/**
 * The type and audience of each MCP platform token: the access token is taken by the platform's
 * API (the routes an agent calls for its user), the refresh token by the token endpoint only.
 */
const MCP_PURPOSES = {
  'mcp-access': { typ: TOKEN_TYPES.mcpAccess, aud: PLATFORM_API_AUDIENCE },
  'mcp-refresh': { typ: TOKEN_TYPES.mcpRefresh, aud: PLATFORM_OAUTH_AUDIENCE },
} as const;

/**
 * Verifies an MCP platform token of the given kind (its `typ`, and its `aud` — tokens issued
 * before audiences were written carry none); `undefined` when it is not a valid one.
 */
export function verifyMcpToken(
  keys: readonly SigningKey[],
  token: string,
  kind: 'mcp-access' | 'mcp-refresh',
): McpGrant | undefined {
  const decoded = jwt.decode(token, { complete: true });
  const key = keys.find((candidate) => candidate.id === decoded?.header.kid);
  if (!key) return undefined;
  try {
    const claims = jwt.verify(token, key.secret, {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
    }) as jwt.JwtPayload;
    if (claims.typ !== kind) return undefined;
    if (claims.aud !== undefined && claims.aud !== MCP_PURPOSES[kind].aud) return undefined;
    return {
      userId: Number(claims.sub),
      environmentId: Number(claims.env),
      renderingId: Number(claims.meta?.renderingId),
      clientId: String(claims.client_id),
      scope: String(claims.scope),
    };
  } catch {
    return undefined;
  }
}
