import type { Request } from 'express';
import type { Knex } from 'knex';
import { unauthorized } from '../errors';
import type { ServerContext } from '../context';
import {
  bearerToken,
  hashTokenId,
  verifyPlatformToken,
  type SessionTokenClaims,
} from './platform-tokens';

/** A verified, unrevoked session. */
export interface Session {
  readonly userId: number;
  readonly sso: boolean;
  readonly claims: SessionTokenClaims;
}

const issuedAt = (claims: SessionTokenClaims) =>
  typeof claims.iat_ms === 'number' ? claims.iat_ms : (claims.iat ?? 0) * 1000;

/**
 * Authenticates the session token of `Authorization: Bearer`: signature and expiry, then the
 * stored state in one query — the account still exists, the token was not revoked, and it was
 * issued after the account's last "sign out everywhere" or password change. Every refusal is a
 * 401 that says why.
 */
export async function authenticateSession(ctx: ServerContext, req: Request): Promise<Session> {
  const claims = verifyPlatformToken<SessionTokenClaims>(
    bearerToken(req.get('authorization')),
    ctx.config.signingKeys,
    'session',
  );
  const userId = Number(claims.sub);
  const row = await ctx
    .knex('users as u')
    .where('u.id', userId)
    .first(
      'u.sessions_valid_after',
      typeof claims.jti === 'string'
        ? ctx.knex.raw(
            'EXISTS (SELECT 1 FROM revoked_session_tokens r WHERE r.token_id_hash = ?) AS revoked',
            [hashTokenId(claims.jti)],
          )
        : ctx.knex.raw('false AS revoked'),
    );
  if (!row) throw unauthorized('The account of this session token no longer exists.');
  if (
    row.revoked ||
    (row.sessions_valid_after && issuedAt(claims) < row.sessions_valid_after.getTime())
  ) {
    throw unauthorized('This session token was revoked (signed out); sign in again.');
  }
  return { userId, sso: claims.sso === true, claims };
}

/**
 * Revokes one session token (by its id), or every session of its account issued until now.
 * Expired revocations are swept on the way.
 */
export async function revokeSession(
  knex: Knex,
  session: Session,
  everywhere: boolean,
): Promise<void> {
  await knex('revoked_session_tokens').where('expires_at', '<', knex.fn.now()).delete();
  if (everywhere || typeof session.claims.jti !== 'string') {
    await knex('users').where({ id: session.userId }).update({ sessions_valid_after: new Date() });
    return;
  }
  await knex('revoked_session_tokens')
    .insert({
      token_id_hash: hashTokenId(session.claims.jti),
      expires_at: new Date(session.claims.exp * 1000),
    })
    .onConflict('token_id_hash')
    .ignore();
}
