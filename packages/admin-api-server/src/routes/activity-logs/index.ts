import { Router } from 'express';
import { requireApplicationToken } from '../../auth';
import type { ServerContext } from '../../http/context';
import { exportActivityLogsHandler } from './export';
import { activityLogCheckpointHandler, activityLogIntegrityHandler } from './integrity';
import { listActivityLogsHandler } from './list';

export { LIST_ACTIVITY_LOGS_QUERY, EXPORT_ACTIVITY_LOGS_QUERY } from './query';
export { INTEGRITY_QUERY } from './integrity';
export { EXPORT_CSV_COLUMNS } from './export';

const BASE = '/v1/project/:projectName/environment/:environmentName/activity-logs';

/** Activity-log routes: list, export, integrity, checkpoint (scope `activity_logs:read`). */
export function activityLogsRouter(ctx: ServerContext): Router {
  const auth = requireApplicationToken(ctx, 'activity_logs:read');
  return Router()
    .get(BASE, auth, listActivityLogsHandler(ctx))
    .get(`${BASE}/export`, auth, exportActivityLogsHandler(ctx))
    .get(`${BASE}/integrity`, auth, activityLogIntegrityHandler(ctx))
    .get(`${BASE}/checkpoint`, auth, activityLogCheckpointHandler(ctx));
}
