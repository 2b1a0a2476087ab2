import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { ApiError, forbidden } from '../errors';
import type { ServerContext } from '../http/context';
import { chargeRequest } from '../rate-limit';
import {
  findEnvironmentByName,
  findPermissionLevel,
  findProjectByName,
  type PermissionLevel,
} from '../store/model';
import { authenticateSession } from './sessions';

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
 * Authenticates a user session token (management routes) and resolves `:projectName` among the
 * projects the user is a member of (anything else is {@link projectNotAccessible}). What a member
 * may do there is the route's decision, unless `level` is given: then other members get a 403.
 */
export function requireSession(ctx: ServerContext, level?: PermissionLevel): RequestHandler {
  return async (req, res, next) => {
    const { userId, sso } = await authenticateSession(ctx, req);
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
 * For `/v1/project/:projectName/environment/:environmentName/…` routes that the console also
 * calls with a user's session token: a session token is authenticated as a member of the project
 * (`level` when given, else any member; others get a 403) and the environment is resolved by
 * name; any other bearer token goes to `applicationToken` unchanged. Handlers then see the same
 * `req.project`, `req.environment` and `req.platformAuth` (its `kind` says which).
 */
export function requireSessionOr(
  ctx: ServerContext,
  applicationToken: RequestHandler,
  level?: PermissionLevel | ((req: Parameters<RequestHandler>[0]) => PermissionLevel | undefined),
): RequestHandler {
  const member = requireSession(ctx);
  return (req, res, next) => {
    const decoded = jwt.decode(bearerTokenOrEmpty(req.get('authorization')));
    if (!decoded || typeof decoded !== 'object' || decoded.typ !== 'session') {
      return applicationToken(req, res, next);
    }
    return member(req, res, async (error?: unknown) => {
      if (error) return next(error);
      try {
        const needed = typeof level === 'function' ? level(req) : level;
        const project = req.project as NonNullable<typeof req.project>;
        const userId = (req.platformAuth as NonNullable<typeof req.platformAuth>).userId;
        if (
          needed !== undefined &&
          (await findPermissionLevel(ctx.knex, project.id, userId)) !== needed
        ) {
          throw forbidden(`Only an ${needed} of project "${project.name}" can do this.`);
        }
        if (req.params.environmentName !== undefined) {
          const name = String(req.params.environmentName);
          const environment = await findEnvironmentByName(ctx.knex, project.id, name);
          if (!environment) {
            throw new ApiError(
              404,
              'environment_not_found',
              `Project "${project.name}" has no environment named "${name}" (names are case sensitive).`,
            );
          }
          req.environment = environment;
        }
        next();
      } catch (failure) {
        next(failure);
      }
    });
  };
}

function bearerTokenOrEmpty(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1] ?? '';
}
