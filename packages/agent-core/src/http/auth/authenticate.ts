import type { IncomingMessage } from 'node:http';

import type { RequestHandler } from 'express';

import { UnauthorizedError } from '../../operations/errors/http-errors';
import type { SessionClaims } from '../../operations/session-claims';
import { verifySessionToken } from './session-token';

/** Name of the cookie that carries the session token; it wins over `Authorization` (§1.6). */
export const SESSION_COOKIE = 'forest_session_token';

const BAD_HEADER = 'Bad Authorization header format. Format is "Authorization: Bearer <token>"';

/** Reads the session token from the cookie, then from `Authorization: Bearer`. */
export function readSessionToken(request: IncomingMessage): string {
  const fromCookie = readCookie(request.headers.cookie, SESSION_COOKIE);
  if (fromCookie) return fromCookie;
  const header = request.headers.authorization;
  if (header === undefined) throw new UnauthorizedError('Authentication Error');
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

/**
 * The session check (§1.5 step 8). Verified tokens are cached by their text for the rest of
 * their life, so the HMAC is computed once per token rather than once per request.
 */
export function sessionCheck(authSecret: string): SessionCheck {
  const cache = new Map<string, SessionClaims>();
  const MAX_CACHED = 1000;
  return (request) => {
    const token = readSessionToken(request);
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
    (request as IncomingMessage & { canopySession?: SessionClaims }).canopySession = claims;
  };
}

/** The session check as an express middleware. */
export function authenticate(authSecret: string): RequestHandler {
  const check = sessionCheck(authSecret);
  return (request, _response, next) => {
    check(request);
    next();
  };
}
