import type { AdminLogItem } from '@canopy/platform-protocol';
import { Router, type RequestHandler } from 'express';
import { requireApplicationToken, requireSessionOr } from '../../auth';
import { required, type ServerContext } from '../../context';
import { listAdminLogs, type AdminLogRow } from '../../store/admin-log-queries';
import { decodeTimeCursor, encodeTimeCursor } from '../../store/cursor';
import { queryParser, type JsonSchema } from '../../validation/ajv';
import { ID_SCHEMA } from '../../validation/input-rules';
import {
  CURSOR_PROPERTY,
  LIMIT_PROPERTY,
  dateFilterOf,
  dateFilterProperties,
} from '../../validation/query-schemas';
import { echoParameters } from '../echo-parameters';
import { userItem } from '../serialize-user';

/** Query schema of the admin-log list. */
export const LIST_ADMIN_LOGS_QUERY: JsonSchema = {
  type: 'object',
  properties: {
    limit: LIMIT_PROPERTY,
    userEmail: { type: 'string', format: 'email', description: 'The administrator email' },
    userId: { ...ID_SCHEMA, description: 'The administrator id' },
    type: {
      type: 'string',
      enum: ['add', 'remove', 'update', 'initial'],
      description: 'The type of change',
    },
    initiator: {
      type: 'string',
      enum: ['administrator', 'identityProvider', 'forestAdmin'],
      description: 'Who initiated the change',
    },
    resource: {
      type: 'string',
      enum: ['user-project', 'role', 'team', 'environment', 'activity-logs', 'note', 'console'],
      description: 'The kind of resource changed',
    },
    ...dateFilterProperties('createdAt'),
    cursor: CURSOR_PROPERTY,
  },
  additionalProperties: false,
};

type AdminLogQuery = Record<string, unknown> & {
  limit?: number;
  cursor?: string;
  userEmail?: string;
  userId?: number;
  type?: string;
  initiator?: string;
  resource?: string;
};

const parseQuery = queryParser<AdminLogQuery>(LIST_ADMIN_LOGS_QUERY);

/** An admin log as the published contract shapes it. */
export function adminLogItem(row: AdminLogRow): AdminLogItem {
  const item: AdminLogItem = {
    object: 'adminLog',
    id: String(row.id),
    type: row.type,
    resource: row.resource,
    initiator: row.initiator,
    createdAt: row.created_at.toISOString(),
  };
  if (row.user_id !== null && row.user_email !== null && row.user_username !== null) {
    item.user = userItem(row.user_id, row.user_email, row.user_username);
  }
  if (row.new_value !== null) item.newValue = row.new_value;
  if (row.previous_value !== null) item.previousValue = row.previous_value;
  return item;
}

function listAdminLogsHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const project = required(req.project, 'project');
    const query = parseQuery(req.query);
    const limit = query.limit ?? 10;
    const { rows, hasMore } = await listAdminLogs(
      ctx.knex,
      {
        projectId: project.id,
        userEmail: query.userEmail,
        userId: query.userId,
        type: query.type,
        initiator: query.initiator,
        resource: query.resource,
        createdAt: dateFilterOf(query, 'createdAt'),
        after: query.cursor === undefined ? undefined : decodeTimeCursor(query.cursor),
      },
      limit,
    );
    const last = rows[rows.length - 1];
    res.json({
      hasMore,
      data: rows.map(adminLogItem),
      parameters: echoParameters({ projectName: project.name }, { ...query, limit }),
      nextCursor:
        hasMore && last
          ? encodeTimeCursor({ createdAt: last.created_at, id: String(last.id) })
          : null,
    });
  };
}

/** `GET /v1/project/:projectName/admin-logs` (scope `admin_logs:read`, or an admin's session). */
export function adminLogsRouter(ctx: ServerContext): Router {
  return Router().get(
    '/v1/project/:projectName/admin-logs',
    requireSessionOr(ctx, requireApplicationToken(ctx, 'admin_logs:read'), 'admin'),
    listAdminLogsHandler(ctx),
  );
}
