import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { ApiError } from '../errors';
import type { ServerContext } from '../context';
import {
  ACTIVITY_LOG_REQUEST_STATUSES,
  createActivityLogRequest,
  MAX_ERROR_MESSAGE_LENGTH,
  updateActivityLogRequestStatus,
  type ActivityLogRequest,
  type ActivityLogRequestStatus,
} from '../store/activity-log-requests';
import { ACTIVITY_ACTIONS, type ActivityAction } from '../store/activity-log-writer';
import { resolveUserAccessToken } from '../auth/rendering-user';

/** The caller of an activity-log request: a user, in one environment of one project. */
interface UserCall {
  userId: number;
  environment: { id: number; projectId: number };
}

const ACTIONS = new Set<string>(ACTIVITY_ACTIONS);
const STATUSES = new Set<string>(ACTIVITY_LOG_REQUEST_STATUSES);
const MAX_TEXT = 10_000;
const MAX_RECORDS = 10_000;

/**
 * The activity-log requests of platform protocol section 10, authenticated by the user's
 * platform token (`Authorization: Bearer`, an MCP platform token or an OIDC access token):
 *
 * - `POST /api/activity-logs-requests/mcp` (flat body, what an MCP server sends before a tool
 *   call), and `POST /api/activity-logs-requests` (the JSON:API body of workflow executors):
 *   store a log in the environment's activity log and answer its id and index;
 * - `PATCH /api/activity-logs-requests/:index/:id/status` `{"status": "completed" | "failed",
 *   "errorMessage"?: string}` (the reason goes with `failed` only).
 *
 * The token is checked before the body is read; bodies are small (100 kB at most).
 */
export function activityLogRequestsRouter(ctx: ServerContext): Router {
  const router = express.Router();
  const json = express.json({ limit: '100kb' });

  const authenticate = async (request: Request, response: Response, next: NextFunction) => {
    const token = request.get('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (token === undefined) {
      throw new ApiError(
        401,
        'unauthorized',
        "Send the user's platform access token as Authorization: Bearer <token>.",
      );
    }
    const { userId, environmentId } = await resolveUserAccessToken(
      ctx.knex,
      ctx.config.signingKeys,
      token,
    );
    const environment = await ctx
      .knex('environments')
      .where({ id: environmentId })
      .first('id', 'project_id as projectId');
    if (!environment) {
      throw new ApiError(401, 'unauthorized', 'The environment of this token no longer exists.');
    }
    response.locals.call = { userId, environment } satisfies UserCall;
    next();
  };

  const create =
    (read: (body: unknown) => ActivityLogRequest) =>
    async (request: Request, response: Response) => {
      const { userId, environment } = response.locals.call as UserCall;
      const { id, index } = await createActivityLogRequest(
        ctx.knex,
        environment,
        userId,
        read(request.body),
      );
      response.json({ data: { type: 'activity-logs-requests', id, attributes: { index } } });
    };

  router.post('/api/activity-logs-requests/mcp', authenticate, json, create(readMcpRequest));
  router.post('/api/activity-logs-requests', authenticate, json, create(readJsonApiRequest));
  router.patch(
    '/api/activity-logs-requests/:index/:id/status',
    authenticate,
    json,
    async (request, response) => {
      const { userId, environment } = response.locals.call as UserCall;
      const body = (request.body ?? {}) as { status?: unknown; errorMessage?: unknown };
      const { status } = body;
      if (status !== 'completed' && status !== 'failed') {
        throw invalid('status', '"completed" or "failed"');
      }
      await updateActivityLogRequestStatus(
        ctx.knex,
        environment.id,
        userId,
        { index: String(request.params.index), id: String(request.params.id) },
        status,
        readErrorMessage(body.errorMessage, status, invalid),
      );
      response.status(204).end();
    },
  );
  return router;
}

const invalid = (path: string, expected: string) =>
  new ApiError(400, 'invalid_body', `Invalid activity-log request: ${path} must be ${expected}.`);

/**
 * The reason of a failure as sent (`errorMessage`): absent, null or a string of at most
 * {@link MAX_ERROR_MESSAGE_LENGTH} characters, and only beside a `failed` status. An empty reason
 * is stored as none.
 */
export function readErrorMessage(
  raw: unknown,
  status: unknown,
  refuse: (path: string, expected: string) => Error,
  path = 'errorMessage',
): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || raw.length > MAX_ERROR_MESSAGE_LENGTH || raw.includes('\u0000')) {
    throw refuse(path, `a string of at most ${MAX_ERROR_MESSAGE_LENGTH} characters`);
  }
  if (status !== 'failed') throw refuse(path, 'sent with the status "failed" only');
  return raw === '' ? null : raw;
}

const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= MAX_TEXT && !value.includes('\u0000');

/** `{type, action, label?, status, records, renderingId, collectionModelName?}`. */
function readMcpRequest(body: unknown): ActivityLogRequest {
  if (typeof body !== 'object' || body === null) throw invalid('the body', 'a JSON object');
  const fields = body as Record<string, unknown>;
  return readFields(fields, fields.renderingId, fields.collectionModelName, '');
}

/**
 * `{"data": {"type": "activity-logs-requests", "attributes": {type, action, label, status,
 * records}, "relationships": {"rendering": {"data": {"id"}}, "collection": {"data": {"id"} | null}}}}`.
 */
function readJsonApiRequest(body: unknown): ActivityLogRequest {
  const data = (body as { data?: unknown } | null)?.data as Record<string, unknown> | undefined;
  if (typeof data !== 'object' || data === null) throw invalid('data', 'a JSON:API resource');
  const attributes = data.attributes;
  if (typeof attributes !== 'object' || attributes === null) {
    throw invalid('data.attributes', 'an object');
  }
  const relationships = (data.relationships ?? {}) as Record<
    string,
    { data?: { id?: unknown } | null } | undefined
  >;
  return readFields(
    attributes as Record<string, unknown>,
    relationships.rendering?.data?.id,
    relationships.collection?.data?.id,
    'data.attributes.',
  );
}

function readFields(
  fields: Record<string, unknown>,
  rawRenderingId: unknown,
  rawCollection: unknown,
  at: string,
): ActivityLogRequest {
  if (fields.type !== 'read' && fields.type !== 'write')
    throw invalid(`${at}type`, 'read or write');
  if (typeof fields.action !== 'string' || !ACTIONS.has(fields.action)) {
    throw invalid(
      `${at}action`,
      `one of the activity-log actions (got ${JSON.stringify(fields.action)})`,
    );
  }
  const label = fields.label ?? null;
  if (label !== null && !isText(label)) throw invalid(`${at}label`, 'a string');
  const status = fields.status ?? 'pending';
  if (typeof status !== 'string' || !STATUSES.has(status)) {
    throw invalid(`${at}status`, 'pending, completed or failed');
  }
  const records = fields.records ?? [];
  if (
    !Array.isArray(records) ||
    records.length > MAX_RECORDS ||
    !records.every((record) => isText(record) || Number.isSafeInteger(record))
  ) {
    throw invalid(`${at}records`, `an array of at most ${MAX_RECORDS} record ids`);
  }
  const renderingId = readRenderingId(rawRenderingId);
  const collection = rawCollection ?? null;
  if (collection !== null && (!isText(collection) || collection === '')) {
    throw invalid('the collection', 'a non-empty string or absent');
  }
  return {
    type: fields.type,
    action: fields.action as ActivityAction,
    label,
    status: status as ActivityLogRequestStatus,
    recordIds: records.map(String),
    renderingId,
    collectionName: collection,
  };
}

/** A rendering id as agents send it: a number or a numeric string (rendering ids are team ids). */
function readRenderingId(raw: unknown): number | null {
  if (raw === undefined || raw === null) return null;
  const id = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : raw;
  if (!Number.isInteger(id) || (id as number) < 1 || (id as number) > 2147483647) {
    throw invalid('renderingId', 'a rendering id (a positive integer)');
  }
  return id as number;
}
