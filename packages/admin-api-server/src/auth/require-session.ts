import type { Request, RequestHandler } from 'express';
import { ApiError, forbidden, projectNotAccessible, unauthorized } from '../errors';
import { findConsoleAccessToken } from './console-client';
import type { ServerContext } from '../context';
import { chargeRequest } from '../rate-limit';
import {
  findEnvironmentByName,
  findPermissionLevel,
  findProjectByName,
  type PermissionLevel,
} from '../store/model';
import { bearerToken, claimedTokenType } from './platform-tokens';
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

/**
 * For `/v1/project/:projectName[/environment/:environmentName]/…` routes that the console also
 * calls as the signed-in user: a platform session token (a JWT of type `session`) or the console's
 * access token (OIDC client `canopy-console`, opaque) is authenticated as a member of the project
 * (`level` when given, else any member; other members get a 403, non-members the 404 of an
 * unknown project) and the environment is resolved by name; any other bearer token goes to
 * `applicationToken` unchanged. Handlers then see the same `req.project`, `req.environment` and
 * `req.platformAuth` (`kind: 'session'` for the user's own credentials).
 */
export function requireSessionOr(
  ctx: ServerContext,
  applicationToken: RequestHandler,
  level?: PermissionLevel | ((req: Parameters<RequestHandler>[0]) => PermissionLevel | undefined),
): RequestHandler {
  return async (req, res, next) => {
    const token = bearerTokenOrEmpty(req.get('authorization'));
    let user: { userId: number; sso: boolean } | undefined;
    if (token !== '' && !token.includes('.')) {
      user = await authenticateUser(ctx, req);
    } else {
      if (claimedTokenType(token, ctx.config.signingKeys) === 'session') {
        const session = await authenticateSession(ctx, req);
        user = { userId: session.userId, sso: session.sso };
      }
    }
    if (!user) {
      await applicationToken(req, res, next);
      return;
    }
    await chargeRequest(ctx.rateLimiter, res, `session:${user.userId}`);
    const projectName = String(req.params.projectName);
    const project = await findProjectByName(ctx.knex, projectName);
    const held = project && (await findPermissionLevel(ctx.knex, project.id, user.userId));
    if (!project || !held) throw projectNotAccessible(projectName);
    const needed = typeof level === 'function' ? level(req) : level;
    if (needed !== undefined && held !== needed) {
      throw forbidden(`Only an ${needed} of project "${projectName}" can do this.`);
    }
    req.project = project;
    req.platformAuth = { kind: 'session', userId: user.userId, scopes: [], sso: user.sso };
    if (req.params.environmentName !== undefined) {
      const name = String(req.params.environmentName);
      const environment = await findEnvironmentByName(ctx.knex, project.id, name);
      if (!environment) {
        throw new ApiError(
          404,
          'environment_not_found',
          `Project "${projectName}" has no environment named "${name}" (names are case sensitive).`,
        );
      }
      req.environment = environment;
    }
    next();
  };
}

function bearerTokenOrEmpty(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1] ?? '';
}
