import { Router, type Request, type RequestHandler, type Response } from 'express';
import jwt from 'jsonwebtoken';
import { authenticateSession } from '../../auth/sessions';
import { bearerToken } from '../../auth/platform-tokens';
import { ApiError } from '../../errors';
import { authenticatedBody } from '../../http/body';
import type { ServerContext } from '../../context';
import { chargeRequest } from '../../rate-limit';
import {
  addApprovalComment,
  createApproval,
  getApproval,
  listApprovals,
  recordApprovalOutcome,
  reviewApproval,
  type ApprovalCaller,
  type ApprovalStatus,
} from '../../store/action-approvals';
import { verifyMcpToken } from '../../auth/mcp-tokens';
import { bodyParser, queryParser } from '../../validation/ajv';
import { idParam, readId } from '../../validation/input-rules';
import type { ActionApprovalInputJson } from '@canopy/platform-protocol';
import * as schemas from './schemas';

export * as approvalSchemas from './schemas';

const environmentNotFound = () =>
  new ApiError(
    404,
    'environment_not_found',
    'No environment with this id is accessible with these credentials.',
  );

/**
 * The environment a call names: header `forest-environment-id` (an id), or the query parameters
 * `project` and `environment` (names, as the console's URLs hold them).
 */
async function namedEnvironment(ctx: ServerContext, req: Request): Promise<number> {
  const header = req.get('forest-environment-id');
  if (header !== undefined) {
    const id = readId(header);
    if (id === undefined) {
      throw new ApiError(
        400,
        'invalid_parameter',
        'Header "forest-environment-id" must be an environment id (a positive integer).',
      );
    }
    return id;
  }
  const { project, environment } = req.query;
  if (typeof project !== 'string' || typeof environment !== 'string' || !project || !environment) {
    throw new ApiError(
      400,
      'invalid_parameter',
      'Name the environment: header "forest-environment-id", or the query parameters "project" and "environment" (names).',
    );
  }
  const row = await ctx
    .knex('environments as e')
    .join('projects as p', 'p.id', 'e.project_id')
    .where({ 'p.name': project, 'e.name': environment })
    .first('e.id');
  if (!row) throw environmentNotFound();
  return row.id;
}

/** The user of an OIDC access token, and its client's environment when the client is an agent's. */
async function oidcAccessToken(
  ctx: ServerContext,
  token: string,
): Promise<{ userId: number; environmentId?: number }> {
  const row = /^[\w-]{1,512}$/.test(token)
    ? await ctx
        .knex('oidc_payloads')
        .where({ model: 'AccessToken', id: token })
        .andWhere('expires_at', '>', ctx.knex.fn.now())
        .first('payload')
    : undefined;
  const userId = Number(row?.payload.accountId);
  if (!row || !Number.isInteger(userId)) {
    throw new ApiError(
      401,
      'unauthorized',
      'The user access token is unknown or expired; log in again.',
    );
  }
  const client = await ctx
    .knex('oidc_payloads')
    .where({ model: 'Client', id: row.payload.clientId })
    .first('payload');
  const environmentId = Number(client?.payload.canopy_environment_id);
  return { userId, environmentId: Number.isInteger(environmentId) ? environmentId : undefined };
}

/**
 * Who calls: `Authorization: Bearer` with a user session token, an MCP platform token or an
 * OIDC access token. MCP tokens and the access tokens of an agent's OIDC client carry their
 * environment; with the others (session tokens, the console's access tokens) the call names it
 * ({@link namedEnvironment}). The user must be a member of the environment's project (else the
 * same 404 as an unknown environment); the team is `forest-rendering-id` when given (one of the
 * user's teams), else the user's first team.
 */
async function authenticateCaller(ctx: ServerContext, req: Request): Promise<ApprovalCaller> {
  const token = bearerToken(req.get('authorization'));
  let userId: number;
  let environmentId: number | undefined;
  const claims = jwt.decode(token);
  const mcp = claims ? verifyMcpToken(ctx.config.signingKeys, token, 'mcp-access') : undefined;
  if (claims && typeof claims === 'object' && claims.typ === 'session') {
    ({ userId } = await authenticateSession(ctx, req));
  } else if (mcp) {
    ({ userId, environmentId } = mcp);
  } else if (claims) {
    throw new ApiError(
      401,
      'unauthorized',
      'The bearer token is not a user token of this platform.',
    );
  } else {
    ({ userId, environmentId } = await oidcAccessToken(ctx, token));
  }
  environmentId ??= await namedEnvironment(ctx, req);
  const environment = await ctx
    .knex('environments')
    .where({ id: environmentId })
    .first('id', 'project_id as projectId', 'type');
  const membership =
    environment &&
    (await ctx
      .knex('project_memberships')
      .where({ project_id: environment.projectId, user_id: userId })
      .first('id'));
  if (!environment || !membership) throw environmentNotFound();
  const teams: number[] = (
    await ctx
      .knex('project_membership_teams')
      .where({ membership_id: membership.id })
      .orderBy('team_id')
      .select('team_id')
  ).map((row) => Number(row.team_id));
  const rendering = req.get('forest-rendering-id');
  let teamId = teams[0];
  if (rendering !== undefined) {
    const id = readId(rendering);
    if (id === undefined || !teams.includes(id)) {
      throw new ApiError(
        403,
        'forbidden',
        `Rendering ${rendering} is not one of your teams in this project (rendering ids are team ids).`,
      );
    }
    teamId = id;
  }
  if (teamId === undefined) {
    throw new ApiError(403, 'forbidden', 'You belong to no team in this project.');
  }
  return { userId, teamId, environment };
}

/** Whether a request's `ids` are the request's `record_ids` (as strings, in any order). */
function sameIds(ids: unknown, recordIds: string[]): boolean {
  if (!Array.isArray(ids) || ids.length !== recordIds.length) return false;
  const expected = new Set(recordIds);
  return ids.every(
    (id) => (typeof id === 'string' || typeof id === 'number') && expected.has(String(id)),
  );
}

const parse = {
  create: bodyParser<{
    data: {
      attributes: {
        action_name: string;
        collection_name: string;
        smart_action_id?: string | null;
        record_ids: (string | number)[];
        inputs: ActionApprovalInputJson[];
        request?: Record<string, unknown> | null;
        comment?: string;
      };
    };
  }>(schemas.CREATE_APPROVAL_BODY),
  comment: bodyParser<{ data: { attributes: { comment: string } } }>(schemas.COMMENT_BODY),
  review: bodyParser<{ comment?: string }>(schemas.REVIEW_BODY),
  outcome: bodyParser<{ outcome: 'succeeded' | 'failed'; message?: string }>(schemas.OUTCOME_BODY),
  list: queryParser<{ status?: ApprovalStatus; mine?: boolean }>(schemas.LIST_APPROVALS_QUERY),
};

/**
 * Action approvals (platform protocol §9–10): requesters file requests (`POST`, what the agent's
 * MCP server and the console send after `CustomActionRequiresApprovalError`), comment them;
 * approvers list the environment's queue and approve (answering the signed approval request the
 * console sends to the agent) or reject; the approver records the run's outcome.
 */
export function actionApprovalsRouter(ctx: ServerContext): Router {
  const authenticate: RequestHandler = async (req, res, next) => {
    const caller = await authenticateCaller(ctx, req);
    await chargeRequest(ctx.rateLimiter, res, `session:${caller.userId}`);
    res.locals.approvalCaller = caller;
    next();
  };
  const withBody = authenticatedBody(authenticate);
  const callerOf = (res: Response) => res.locals.approvalCaller as ApprovalCaller;
  const BASE = '/api/action-approvals';

  return Router()
    .post(BASE, withBody, async (req, res) => {
      const { attributes } = parse.create(req.body).data;
      for (const key of ['requester_id', 'signed_approval_request']) {
        if (attributes.request && key in attributes.request) {
          throw new ApiError(
            400,
            'invalid_body',
            `Body property "data.attributes.request.${key}" is not accepted: the platform sets it when the request is approved.`,
          );
        }
      }
      // The records the approver is shown are those the agent runs the action on (a select-all
      // call lists the excluded records there instead).
      const requested = attributes.request?.ids;
      const recordIds = attributes.record_ids.map(String);
      const allRecords = attributes.request?.all_records === true;
      if (requested !== undefined && !allRecords && !sameIds(requested, recordIds)) {
        throw new ApiError(
          400,
          'invalid_body',
          'Body property "data.attributes.request.ids" must list the records of "data.attributes.record_ids": the approver approves those.',
        );
      }
      const id = await createApproval(ctx.knex, callerOf(res), {
        actionName: attributes.action_name,
        collectionName: attributes.collection_name,
        smartActionId: attributes.smart_action_id ?? null,
        recordIds,
        inputs: attributes.inputs,
        request: attributes.request ?? null,
        comment: attributes.comment,
      });
      res.status(201).json({ data: await getApproval(ctx.knex, callerOf(res), Number(id)) });
    })
    .get(BASE, authenticate, async (req, res) => {
      const query = parse.list(req.query);
      res.json({ data: await listApprovals(ctx.knex, callerOf(res), query) });
    })
    .get(`${BASE}/:approvalId`, authenticate, async (req, res) => {
      const id = idParam('approvalId', req.params.approvalId);
      res.json({ data: await getApproval(ctx.knex, callerOf(res), id) });
    })
    .post(`${BASE}/:approvalId/comments`, withBody, async (req, res) => {
      const id = idParam('approvalId', req.params.approvalId);
      const { comment } = parse.comment(req.body).data.attributes;
      const commentId = await addApprovalComment(ctx.knex, callerOf(res), id, comment);
      res.status(201).json({ data: { type: 'comments', id: commentId, attributes: { comment } } });
    })
    .post(`${BASE}/:approvalId/approve`, withBody, async (req, res) => {
      const id = idParam('approvalId', req.params.approvalId);
      const { comment } = parse.review(req.body ?? {});
      const { signedApprovalRequest } = await reviewApproval(
        ctx.knex,
        callerOf(res),
        id,
        'approved',
        comment,
      );
      res.json({
        data: await getApproval(ctx.knex, callerOf(res), id),
        meta: { signed_approval_request: signedApprovalRequest },
      });
    })
    .post(`${BASE}/:approvalId/reject`, withBody, async (req, res) => {
      const id = idParam('approvalId', req.params.approvalId);
      const { comment } = parse.review(req.body ?? {});
      await reviewApproval(ctx.knex, callerOf(res), id, 'rejected', comment);
      res.json({ data: await getApproval(ctx.knex, callerOf(res), id) });
    })
    .post(`${BASE}/:approvalId/outcome`, withBody, async (req, res) => {
      const id = idParam('approvalId', req.params.approvalId);
      const { outcome, message } = parse.outcome(req.body);
      await recordApprovalOutcome(ctx.knex, callerOf(res), id, outcome, message);
      res.json({ data: await getApproval(ctx.knex, callerOf(res), id) });
    });
}
