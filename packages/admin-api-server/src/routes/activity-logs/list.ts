import type { RequestHandler } from 'express';
import type { ServerContext } from '../../http/context';
import { required } from '../../http/context';
import { listActivityLogs } from '../../store/activity-log-queries';
import { decodeTimeCursor, encodeTimeCursor } from '../../store/cursor';
import { echoParameters } from '../echo-parameters';
import { parseListActivityLogsQuery, toActivityLogFilters } from './query';
import { activityLogItem } from './serialize';

/** `GET …/activity-logs`: newest first, `{hasMore, data, parameters, nextCursor}`. */
export function listActivityLogsHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const project = required(req.project, 'project');
    const environment = required(req.environment, 'environment');
    const query = parseListActivityLogsQuery(req.query);
    const limit = query.limit ?? 10;
    const filters = toActivityLogFilters(query, project.id, environment.id);
    if (query.cursor !== undefined) filters.after = decodeTimeCursor(query.cursor);
    const { rows, hasMore } = await listActivityLogs(ctx.knex, filters, limit);
    const last = rows[rows.length - 1];
    res.json({
      hasMore,
      data: rows.map((row) => activityLogItem(row, environment.name)),
      parameters: echoParameters(
        { projectName: project.name, environmentName: environment.name },
        { ...query, limit },
      ),
      nextCursor:
        hasMore && last
          ? encodeTimeCursor({ createdAt: last.created_at, id: String(last.id) })
          : null,
    });
  };
}
