import { Router, type Request, type RequestHandler } from 'express';
import { bearerToken } from '../../auth/platform-tokens';
import { authenticateSession } from '../../auth/sessions';
import { unauthorized } from '../../errors';
import type { ServerContext } from '../../context';
import { findConsoleAccessToken } from '../../auth/console-client';
import { chargeRequest } from '../../rate-limit';
import { environmentDetail, listWorkspaces } from '../../store/me';
import { revokeAgentSessions } from '../../store/platform-events';

/**
 * The signed-in user, from either credential a browser or script holds: the console's access
 * token (OIDC client `canopy-console`, opaque) or a platform session token (a JWT). Every
 * refusal is a 401 saying why.
 */
async function authenticateUser(ctx: ServerContext, req: Request): Promise<number> {
  const token = bearerToken(req.get('authorization'));
  if (token.includes('.')) return (await authenticateSession(ctx, req)).userId;
  const found = await findConsoleAccessToken(ctx.knex, token);
  if (!found) {
    throw unauthorized(
      'This access token is unknown, expired or revoked; sign in to the console again.',
    );
  }
  return found.userId;
}

/** The ETag of a rights version (a strong validator: the body is the same byte for byte). */
const etagOf = (version: string) => `"${version}"`;

/**
 * The browser-facing routes of the signed-in user (the console reads them): the projects and
 * environments they may open, and per environment their team(s), role rights and the schema the
 * agent uploaded. Only projects the user is a member of exist here. And the console's sign-out:
 * the agents of the user's projects refuse the user's agent session tokens from then on.
 */
export function meRouter(ctx: ServerContext): Router {
  const signedIn: RequestHandler = async (req, res, next) => {
    const userId = await authenticateUser(ctx, req);
    await chargeRequest(ctx.rateLimiter, res, `session:${userId}`);
    res.locals.userId = userId;
    next();
  };
  return Router()
    .post('/v1/me/agent-sessions/revoke', signedIn, async (_req, res) => {
      await revokeAgentSessions(ctx.knex, res.locals.userId as number);
      res.status(204).end();
    })
    .get('/v1/me/workspaces', signedIn, async (_req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await listWorkspaces(ctx.knex, res.locals.userId as number));
    })
    .get(
      '/v1/me/projects/:projectName/environments/:environmentName',
      signedIn,
      async (req, res) => {
        const ifNoneMatch = req.get('if-none-match');
        const known = ifNoneMatch?.match(/^(?:W\/)?"([A-Za-z0-9_-]{1,64})"$/)?.[1];
        const detail = await environmentDetail(
          ctx.knex,
          res.locals.userId as number,
          String(req.params.projectName),
          String(req.params.environmentName),
          known,
        );
        // Revalidated on every use: rights change while the console is open.
        res.setHeader('Cache-Control', 'private, no-cache');
        res.setHeader('ETag', etagOf(detail.rightsVersion));
        if ('notModified' in detail) {
          res.status(304).end();
          return;
        }
        res.json(detail);
      },
    );
}
