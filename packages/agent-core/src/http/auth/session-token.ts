import jwt from 'jsonwebtoken';

import type { SessionClaims } from '../../operations/session-claims';
import { UnauthorizedError } from '../../operations/errors/http-errors';

const PERMISSION_LEVELS: ReadonlySet<string> = new Set(['admin', 'developer', 'editor', 'user']);

/** Lifetime of a session token issued by the callback route (§3.2). */
export const SESSION_LIFETIME_SECONDS = 3600;

/**
 * Verifies a session token: HS256 only (the protocol accepts any HMAC algorithm; we pin HS256 so
 * that `alg: none` and algorithm-confusion tokens are refused), `exp` enforced, claims checked
 * for type. Any failure is a 401 `Authentication Error`, whatever the cause.
 */
export function verifySessionToken(token: string, authSecret: string): SessionClaims {
  let payload: unknown;
  try {
    payload = jwt.verify(token, authSecret, { algorithms: ['HS256'] });
  } catch (error) {
    throw new UnauthorizedError('Authentication Error', { cause: error });
  }
  if (!isSessionClaims(payload)) throw new UnauthorizedError('Authentication Error');
  return payload;
}

/** Signs a session token for `claims` (HS256, one hour). */
export function signSessionToken(
  claims: Omit<SessionClaims, 'iat' | 'exp'>,
  authSecret: string,
): string {
  return jwt.sign({ ...claims }, authSecret, {
    algorithm: 'HS256',
    expiresIn: SESSION_LIFETIME_SECONDS,
  });
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
