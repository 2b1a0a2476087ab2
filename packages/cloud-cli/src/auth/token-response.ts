import { CliError } from '../cli-error';
import type { StoredToken } from './token-store';

/** Turns a successful token-endpoint answer (RFC 6749 §5.1) into a stored token. */
export function toStoredToken(body: unknown, now: number = Date.now()): StoredToken {
  const record = (body ?? {}) as Record<string, unknown>;
  if (typeof record.access_token !== 'string' || record.access_token === '') {
    throw new CliError(
      'PLATFORM_ERROR',
      'The Canopy platform answered the login without an access_token; try again or update the platform server.',
    );
  }
  const token: StoredToken = { accessToken: record.access_token };
  if (typeof record.refresh_token === 'string') token.refreshToken = record.refresh_token;
  if (typeof record.expires_in === 'number' && record.expires_in > 0) {
    token.expiresAt = now + record.expires_in * 1000;
  }
  return token;
}
