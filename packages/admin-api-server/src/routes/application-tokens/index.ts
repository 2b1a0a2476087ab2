import type { ApplicationTokenItem } from '@canopy/platform-protocol';
import { Router, type RequestHandler } from 'express';
import { requireSession, SCOPES, type Scope } from '../../auth';
import { ApiError, forbidden } from '../../errors';
import { required, type ServerContext } from '../../context';
import {
  listApplicationTokens,
  revokeApplicationToken,
  type ApplicationTokenRow,
} from '../../store/application-tokens';
import { findPermissionLevel } from '../../store/model';
import { issueApplicationToken } from '../../tokens/issue-application-token';
import { jsonBody } from '../../http/body';
import { bodyParser, type JsonSchema } from '../../validation/ajv';
import { idParam } from '../../validation/input-rules';

/** Body of `POST /v1/project/{projectName}/application-tokens`. */
export const CREATE_TOKEN_BODY: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    scopes: {
      type: 'array',
      items: { type: 'string', enum: [...SCOPES] },
      minItems: 1,
      uniqueItems: true,
    },
    expiresAt: {
      type: 'string',
      format: 'date-time',
      description: 'Defaults to the configured lifetime',
    },
  },
  required: ['name', 'scopes'],
  additionalProperties: false,
};

const parseCreateBody = bodyParser<{ name: string; scopes: Scope[]; expiresAt?: string }>(
  CREATE_TOKEN_BODY,
);

/** A token as listed: never the token itself. */
export function applicationTokenItem(row: ApplicationTokenRow): ApplicationTokenItem {
  return {
    object: 'applicationToken',
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    expiresAt: row.expires_at.toISOString(),
  };
}

function requireAdmin(ctx: ServerContext): RequestHandler {
  return async (req, _res, next) => {
    const project = required(req.project, 'project');
    const auth = required(req.platformAuth, 'auth');
    if ((await findPermissionLevel(ctx.knex, project.id, auth.userId)) !== 'admin') {
      throw forbidden(
        `Only a user holding the Admin role on project "${project.name}" can manage its tokens.`,
      );
    }
    next();
  };
}

/**
 * Token management for a logged-in user (session token): create (shown once), list, revoke.
 */
export function applicationTokensRouter(ctx: ServerContext): Router {
  const base = '/v1/project/:projectName/application-tokens';
  const session = requireSession(ctx);
  return Router()
    .post(base, session, jsonBody(), async (req, res) => {
      const project = required(req.project, 'project');
      const auth = required(req.platformAuth, 'auth');
      const body = parseCreateBody(req.body);
      const expiresAt = body.expiresAt
        ? new Date(body.expiresAt)
        : new Date(Date.now() + ctx.config.defaultTokenLifetimeDays * 86_400_000);
      if (expiresAt.getTime() <= Date.now()) {
        throw new ApiError(400, 'invalid_body', 'Body property "expiresAt" must be in the future.');
      }
      const { token, row } = await issueApplicationToken(ctx.knex, ctx.config.signingKeys, {
        project,
        userId: auth.userId,
        name: body.name,
        scopes: body.scopes,
        expiresAt,
        viaSso: auth.sso,
      });
      // The token is shown once: no cache may keep a copy.
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({ ...applicationTokenItem(row), token });
    })
    .get(base, session, requireAdmin(ctx), async (req, res) => {
      const project = required(req.project, 'project');
      const rows = await listApplicationTokens(ctx.knex, project.id);
      res.json({ data: rows.map(applicationTokenItem) });
    })
    .delete(`${base}/:tokenId`, session, requireAdmin(ctx), async (req, res) => {
      const project = required(req.project, 'project');
      const raw = idParam('tokenId', req.params.tokenId);
      if (!(await revokeApplicationToken(ctx.knex, raw, project.id))) {
        throw new ApiError(
          404,
          'token_not_found',
          `Project "${project.name}" has no live token ${raw}.`,
        );
      }
      res.status(204).end();
    });
}
