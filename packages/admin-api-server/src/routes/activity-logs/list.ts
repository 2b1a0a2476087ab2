import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { required } from '../../context';
import { sendJsonText } from '../../http/json-text';
import { listActivityLogPage } from '../../store/activity-log-queries';
import { decodeTimeCursor, encodeTimeCursor } from '../../store/cursor';
import type { EnvironmentRow, ProjectRow } from '../../store/model';
import { echoParameters } from '../echo-parameters';
import { parseListActivityLogsQuery, toActivityLogFilters } from './query';
import { activityLogJson } from './serialize';

/**
 * One page of the list as its JSON text, from the request's query object (as express's simple
 * query parser, node's `querystring.parse`, gives it).
 */
export async function listActivityLogsPage(
  ctx: ServerContext,
  project: ProjectRow,
  environment: EnvironmentRow,
  rawQuery: unknown,
): Promise<string> {
  const query = parseListActivityLogsQuery(rawQuery);
  const limit = query.limit ?? 10;
  const filters = toActivityLogFilters(query, project.id, environment.id);
  if (query.cursor !== undefined) filters.after = decodeTimeCursor(query.cursor);
  const { rows, hasMore } = await listActivityLogPage(ctx.knex, filters, limit);
  const last = rows[rows.length - 1];
  const environmentJson = JSON.stringify(environment.name);
  // `JSON.stringify({hasMore, data, parameters, nextCursor})`, with each item written from its
  // row (activityLogJson) rather than built and then stringified.
  let data = '';
  for (let index = 0; index < rows.length; index += 1) {
    if (index > 0) data += ',';
    data += activityLogJson(rows[index]!, environmentJson);
  }
  const parameters = echoParameters(
    { projectName: project.name, environmentName: environment.name },
    { ...query, limit },
  );
  const nextCursor =
    hasMore && last
      ? encodeTimeCursor({ createdAt: new Date(last.created_at), id: String(last.id) })
      : null;
  return `{"hasMore":${hasMore},"data":[${data}],"parameters":${JSON.stringify(parameters)},"nextCursor":${JSON.stringify(nextCursor)}}`;
}

/** `GET …/activity-logs`: newest first, `{hasMore, data, parameters, nextCursor}`. */
export function listActivityLogsHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const project = required(req.project, 'project');
    const environment = required(req.environment, 'environment');
    const page = await listActivityLogsPage(ctx, project, environment, req.query);
    sendJsonText(req, res, page);
  };
}
