import { SESSION_PERMISSION_LEVELS } from '@canopy/platform-protocol';
import type { SessionClaims } from '../../operations/session-claims';
import { UnauthorizedError } from '../../toolkit/errors/canopy-error';
import { AgentTokenRefusal, signAgentToken, verifyAgentToken } from './agent-tokens';

const PERMISSION_LEVELS: ReadonlySet<string> = new Set(SESSION_PERMISSION_LEVELS);

/** Lifetime of a session token issued by the callback route (§3.2). */
export const SESSION_LIFETIME_SECONDS = 3600;

/**
 * Verifies a session token: HS256 only (the protocol accepts any HMAC algorithm; we pin HS256 so
 * that `alg: none` and algorithm-confusion tokens are refused), `exp` enforced, `typ`
 * `agent-session` and `aud` `canopy-agent-rest` (an MCP access token, signed with the same
 * secret, is refused), claims checked for type. Any failure is a 401 `Authentication Error`; a
 * token of another kind says which it is.
 */
export function verifySessionToken(token: string, authSecret: string): SessionClaims {
  let payload: unknown;
  try {
    payload = verifyAgentToken('session', token, authSecret);
  } catch (error) {
    const wrongKind = error instanceof AgentTokenRefusal && error.reason === 'wrong-kind';
    throw new UnauthorizedError(
      wrongKind ? `Authentication Error: ${error.message}` : 'Authentication Error',
      { cause: error },
    );
  }
  if (!isSessionClaims(payload)) throw new UnauthorizedError('Authentication Error');
  return payload;
}

/**
 * Signs a session token for `claims` (HS256, one hour), with `typ: "agent-session"`,
 * `aud: "canopy-agent-rest"`, `iss: "canopy-agent"` and a `jti`; other registered claims in
 * `claims` are replaced.
 */
export function signSessionToken(
  claims: Omit<SessionClaims, 'iat' | 'exp'>,
  authSecret: string,
): string {
  return signAgentToken('session', { ...claims }, authSecret, SESSION_LIFETIME_SECONDS);
}

function isSessionClaims(payload: unknown): payload is SessionClaims {
  if (typeof payload !== 'object' || payload === null) return false;
  const claims = payload as Record<string, unknown>;
  const tags = claims.tags ?? {};
  return (
    typeof claims.id === 'number' &&
    Number.isFinite(claims.id) &&
    typeof claims.renderingId === 'number' &&
    Number.isFinite(claims.renderingId) &&
    typeof claims.email === 'string' &&
    ['firstName', 'lastName', 'team', 'role'].every(
      (key) => claims[key] === undefined || typeof claims[key] === 'string',
    ) &&
    (claims.permissionLevel === undefined ||
      (typeof claims.permissionLevel === 'string' &&
        PERMISSION_LEVELS.has(claims.permissionLevel))) &&
    typeof tags === 'object' &&
    tags !== null &&
    !Array.isArray(tags) &&
    Object.values(tags).every((value) => typeof value === 'string')
  );
}
