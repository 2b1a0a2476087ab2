import type { IncomingMessage } from 'node:http';

import { UnauthorizedError } from '../../toolkit/errors/canopy-error';
import type { SessionClaims } from '../../operations/session-claims';
import type { AgentServices, SessionRevocations } from '../../platform/agent-services';
import { isAllowedOrigin } from '../pipeline/cors';
import { verifySessionToken } from '../../protocol/auth/session-token';

/** Name of the cookie that may carry the session token on reads (§1.6). */
export const SESSION_COOKIE = 'forest_session_token';

const BAD_HEADER = 'Bad Authorization header format. Format is "Authorization: Bearer <token>"';

/** Methods on which the session cookie is read: they change nothing, so a forged one does no harm. */
const COOKIE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** `Sec-Fetch-Site` values of a request that no other site's page started. */
const FIRST_PARTY_FETCH: ReadonlySet<string> = new Set(['same-origin', 'none']);

/**
 * Whether the session cookie of `request` may authenticate it. A cookie is sent by the browser
 * whoever's page starts the request, so it is read only where a forged request can do nothing:
 * on `GET` and `HEAD`, and only when the request comes from an allowed origin's page (its
 * `Origin`) or from no other site at all (no `Origin`, and `Sec-Fetch-Site` absent, `same-origin`
 * or `none`). Writes always need `Authorization: Bearer`.
 */
function cookieUsable(request: IncomingMessage, allowedOrigins: readonly string[]): boolean {
  if (!COOKIE_METHODS.has(request.method ?? '')) return false;
  if (request.headers.origin !== undefined) return isAllowedOrigin(request, allowedOrigins);
  const site = request.headers['sec-fetch-site'];
  return site === undefined || FIRST_PARTY_FETCH.has(String(site));
}

/**
 * Reads the session token: from the cookie where {@link cookieUsable} allows it (it then wins,
 * as the protocol says), else from `Authorization: Bearer`.
 */
export function readSessionToken(
  request: IncomingMessage,
  allowedOrigins: readonly string[] = [],
): string {
  const fromCookie = readCookie(request.headers.cookie, SESSION_COOKIE);
  if (fromCookie && cookieUsable(request, allowedOrigins)) return fromCookie;
  const header = request.headers.authorization;
  if (header === undefined) {
    throw new UnauthorizedError(
      fromCookie
        ? 'Authentication Error: the session cookie is accepted only on GET requests from an allowed origin; send Authorization: Bearer <token>'
        : 'Authentication Error',
    );
  }
  const parts = header.split(' ');
  if (parts.length !== 2 || !/^Bearer$/i.test(parts[0] ?? '') || !parts[1]) {
    throw new UnauthorizedError(BAD_HEADER);
  }
  return parts[1];
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const index = pair.indexOf('=');
    if (index < 0) continue;
    if (pair.slice(0, index).trim() !== name) continue;
    const value = pair.slice(index + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** Where the session check stores the verified claims for the routes below it. */
export function getSessionClaims(request: IncomingMessage): SessionClaims {
  const claims = (request as IncomingMessage & { canopySession?: SessionClaims }).canopySession;
  if (!claims) throw new UnauthorizedError('Authentication Error');
  return claims;
}

/** The session check of one request: stores the verified claims on it, or throws a 401. */
export type SessionCheck = (request: IncomingMessage) => void;

/** What the session check needs. */
export interface SessionCheckOptions {
  /** HMAC secret of session tokens. */
  readonly authSecret: string;
  /** Origins allowed by CORS: pages of these origins may authenticate reads with the cookie. */
  readonly corsOrigins?: readonly string[];
  /** Sessions signed out on the platform: refused until they expire. */
  readonly revocations?: SessionRevocations;
}

/** The session check options of an agent's services. */
export function sessionCheckOptions(services: AgentServices): SessionCheckOptions {
  return {
    authSecret: services.options.authSecret,
    corsOrigins: services.options.corsOrigins,
    revocations: services.revocations,
  };
}

/**
 * The session check (§1.5 step 8). Verified tokens are cached by their text for the rest of
 * their life, so the HMAC is computed once per token rather than once per request; the
 * revocation check runs on every request.
 */
export function sessionCheck(options: SessionCheckOptions): SessionCheck {
  const { authSecret, corsOrigins = [], revocations } = options;
  const cache = new Map<string, SessionClaims>();
  const MAX_CACHED = 1000;
  return (request) => {
    const token = readSessionToken(request, corsOrigins);
    let claims = cache.get(token);
    if (claims && claims.exp !== undefined && claims.exp * 1000 <= Date.now()) {
      cache.delete(token);
      claims = undefined;
    }
    if (!claims) {
      claims = verifySessionToken(token, authSecret);
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(token, claims);
    }
    if (revocations?.isRevoked(claims.id, claims.iat ?? 0)) {
      throw new UnauthorizedError(
        'Authentication Error: this session was signed out; sign in again',
      );
    }
    (request as IncomingMessage & { canopySession?: SessionClaims }).canopySession = claims;
  };
}
