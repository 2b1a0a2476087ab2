import { Router } from 'express';
import type { Request } from 'express';
import { requireApplicationToken, requireSessionOr } from '../../auth';
import type { ServerContext } from '../../context';
import { exportActivityLogsHandler } from './export';
import { activityLogCheckpointHandler, activityLogIntegrityHandler } from './integrity';
import { listActivityLogsHandler } from './list';

export { LIST_ACTIVITY_LOGS_QUERY, EXPORT_ACTIVITY_LOGS_QUERY } from './query';
export { INTEGRITY_QUERY } from './integrity';
export { EXPORT_CSV_COLUMNS } from './export';

const BASE = '/v1/project/:projectName/environment/:environmentName/activity-logs';

/**
 * Activity-log routes: list, export, integrity, checkpoint (scope `activity_logs:read`), also
 * for the console's session tokens: admins, and any member for one record's list.
 */
export function activityLogsRouter(ctx: ServerContext): Router {
  const token = requireApplicationToken(ctx, 'activity_logs:read');
  const auth = requireSessionOr(ctx, token, 'admin');
  // With a session token, any member may read the activity of one record (the record's history
  // in the console); the environment-wide log is for admins.
  const list = requireSessionOr(ctx, token, (req: Request) =>
    typeof req.query.collectionName === 'string' && typeof req.query.recordId === 'string'
      ? undefined
      : 'admin',
  );
  return Router()
    .get(BASE, list, listActivityLogsHandler(ctx))
    .get(`${BASE}/export`, auth, exportActivityLogsHandler(ctx))
    .get(`${BASE}/integrity`, auth, activityLogIntegrityHandler(ctx))
    .get(`${BASE}/checkpoint`, auth, activityLogCheckpointHandler(ctx));
}
