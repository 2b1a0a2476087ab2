import type { Request, RequestHandler } from 'express';
import { ApiError, forbidden, unauthorized } from '../errors';
import type { ServerContext } from '../http/context';
import { chargeRequest } from '../rate-limit';
import { findPermissionLevel, findProjectByName, type PermissionLevel } from '../store/model';
import { findConsoleAccessToken } from '../oidc/console-client';
import { bearerToken } from './platform-tokens';
import { authenticateSession } from './sessions';

/**
 * The user of a management call: a platform session token (a JWT), or the access token the
 * Canopy Console got from its sign-in (OIDC client `canopy-console`, opaque), with which the
 * console's settings call the management API as the signed-in user. Every refusal is a 401.
 */
export async function authenticateUser(
  ctx: ServerContext,
  req: Request,
): Promise<{ userId: number; sso: boolean }> {
  const token = bearerToken(req.get('authorization'));
  if (token.includes('.')) return authenticateSession(ctx, req);
  const found = await findConsoleAccessToken(ctx.knex, token);
  if (!found) {
    throw unauthorized(
      'This access token is unknown, expired or revoked; sign in to the console again.',
    );
  }
  return { userId: found.userId, sso: false };
}

/**
 * 404 for a project the caller may not see: an unknown name and a project of which the caller is
 * no member get this same answer, so names of other tenants' projects cannot be probed.
 */
export function projectNotAccessible(name: string): ApiError {
  return new ApiError(
    404,
    'project_not_found',
    `No project named "${name}" is accessible with these credentials (names are case sensitive).`,
  );
}

/**
 * Authenticates a user session token or console access token (management routes) and resolves `:projectName` among the
 * projects the user is a member of (anything else is {@link projectNotAccessible}). What a member
 * may do there is the route's decision, unless `level` is given: then other members get a 403.
 */
export function requireSession(ctx: ServerContext, level?: PermissionLevel): RequestHandler {
  return async (req, res, next) => {
    const { userId, sso } = await authenticateUser(ctx, req);
    await chargeRequest(ctx.rateLimiter, res, `session:${userId}`);
    const projectName = String(req.params.projectName);
    const project = await findProjectByName(ctx.knex, projectName);
    const held = project && (await findPermissionLevel(ctx.knex, project.id, userId));
    if (!project || !held) throw projectNotAccessible(projectName);
    if (level !== undefined && held !== level) {
      throw forbidden(`Only an ${level} of project "${projectName}" can manage it.`);
    }
    req.project = project;
    req.platformAuth = { kind: 'session', userId, scopes: [], sso };
    next();
  };
}
