import type { RequestHandler } from 'express';
import { ApiError } from '../errors';
import type { ServerContext } from '../http/context';
import { chargeRequest } from '../rate-limit';
import { findProjectByName } from '../store/model';
import { bearerToken, verifyPlatformToken, type SessionTokenClaims } from './platform-tokens';

/**
 * Authenticates a user session token (management routes) and resolves `:projectName`. Whether
 * the user may act on the project is the route's decision.
 */
export function requireSession(ctx: ServerContext): RequestHandler {
  return async (req, res, next) => {
    const claims = verifyPlatformToken<SessionTokenClaims>(
      bearerToken(req.get('authorization')),
      ctx.config.signingKeys,
      'session',
    );
    const userId = Number(claims.sub);
    await chargeRequest(ctx.rateLimiter, res, `session:${userId}`);
    const projectName = String(req.params.projectName);
    const project = await findProjectByName(ctx.knex, projectName);
    if (!project) {
      throw new ApiError(
        404,
        'project_not_found',
        `No project is named "${projectName}" (names are case sensitive).`,
      );
    }
    req.project = project;
    req.platformAuth = { kind: 'session', userId, scopes: [], sso: claims.sso === true };
    next();
  };
}
