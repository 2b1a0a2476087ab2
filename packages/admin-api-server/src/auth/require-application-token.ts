import type { RequestHandler } from 'express';
import { ApiError, forbidden, unauthorized } from '../errors';
import type { ServerContext } from '../http/context';
import { chargeRequest } from '../rate-limit';
import { findTokenContext, touchApplicationToken } from '../store/application-tokens';
import {
  bearerToken,
  hashTokenId,
  verifyPlatformToken,
  type ApplicationTokenClaims,
} from './platform-tokens';
import { projectNotAccessible } from './require-session';
import { hasScope, type Scope } from './scopes';

const TOUCH_INTERVAL_MS = 60_000;

/**
 * Authenticates an application token for a `/v1/project/:projectName[/environment/:environmentName]`
 * route, in this order: signature and expiry (401), the stored row — revoked or unknown tokens
 * fail here (401; on every replica within a second of the revocation), the per-token rate limit
 * (429), the token's project
 * by case-sensitive name (404, the same for an unknown project and another one), the environment (404), its creator still an Admin, SSO
 * and the scope (403). The stored state is read in one query, and kept a few seconds in
 * `ctx.tokenContexts` while every replica hears revocations and other access changes at once
 * (see `TokenContextCache`).
 */
export function requireApplicationToken(ctx: ServerContext, scope: Scope): RequestHandler {
  return async (req, res, next) => {
    const claims = verifyPlatformToken<ApplicationTokenClaims>(
      bearerToken(req.get('authorization')),
      ctx.config.signingKeys,
      'application',
    );
    const environmentName =
      req.params.environmentName === undefined ? undefined : String(req.params.environmentName);
    const tokenIdHash = hashTokenId(claims.jti);
    const load = () => findTokenContext(ctx.knex, tokenIdHash, environmentName);
    const row = ctx.tokenContexts
      ? await ctx.tokenContexts.get(tokenIdHash, environmentName, load)
      : await load();
    if (!row) throw unauthorized('The bearer token is not known to this server.');
    if (row.revoked_at) {
      throw unauthorized(`The bearer token was revoked at ${row.revoked_at.toISOString()}.`);
    }
    if (row.expires_at.getTime() <= Date.now()) {
      throw unauthorized(`The bearer token expired at ${row.expires_at.toISOString()}.`);
    }
    await chargeRequest(ctx.rateLimiter, res, `token:${row.id}`);

    const projectName = String(req.params.projectName);
    // Another project's name and an unknown one get the same answer: no probing of names.
    if (projectName !== row.project_name) throw projectNotAccessible(projectName);
    if (row.permission_level !== 'admin') {
      throw forbidden(
        'The user who created this token no longer holds the Admin role on the project.',
      );
    }
    if (row.project_sso_enabled && !row.created_with_sso) {
      throw forbidden(
        `Project "${projectName}" uses SSO: use a token created while logged in through SSO.`,
      );
    }
    if (!hasScope(row.scopes, scope)) {
      throw forbidden(`This token lacks the "${scope}" scope (it has: ${row.scopes.join(', ')}).`);
    }
    req.project = {
      id: row.project_id,
      name: row.project_name,
      sso_enabled: row.project_sso_enabled,
    };
    req.platformAuth = {
      kind: 'application',
      userId: row.user_id,
      tokenId: row.id,
      scopes: row.scopes,
      sso: row.created_with_sso,
    };
    if (environmentName !== undefined) {
      if (row.environment_id === null || row.environment_type === null) {
        throw new ApiError(
          404,
          'environment_not_found',
          `Project "${projectName}" has no environment named "${environmentName}" (names are case sensitive).`,
        );
      }
      req.environment = {
        id: row.environment_id,
        project_id: row.project_id,
        name: environmentName,
        type: row.environment_type,
      };
    }
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > TOUCH_INTERVAL_MS) {
      await touchApplicationToken(ctx.knex, row.id);
      // The row may be cached: the next touch is due a minute from now, not on the next request.
      row.last_used_at = new Date();
    }
    next();
  };
}
