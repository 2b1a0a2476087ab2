import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { RequestHandler } from 'express';
import { required, type ServerContext } from '../../http/context';
import { activityLogQuery, type ActivityLogRow } from '../../store/activity-log-queries';
import { parseExportActivityLogsQuery, toActivityLogFilters } from './query';
import { activityLogItem, type ActivityLogItem } from './serialize';

/** CSV columns of the export, in order. */
export const EXPORT_CSV_COLUMNS = [
  'id',
  'createdAt',
  'type',
  'action',
  'label',
  'userId',
  'userEmail',
  'username',
  'team',
  'environment',
  'collection',
  'recordIds',
  'inbox',
  'workflow',
] as const;

function csvRecord(item: ActivityLogItem): (string | number)[] {
  return [
    item.id,
    item.createdAt,
    item.type,
    item.action,
    item.label ?? '',
    item.user.id,
    item.user.email,
    item.user.username,
    item.team.name,
    item.environment.name,
    item.collection?.name ?? '',
    JSON.stringify(item.recordIds),
    item.inbox?.name ?? '',
    item.workflow ? JSON.stringify(item.workflow) : '',
  ];
}

/**
 * `GET …/activity-logs/export`: every log of the filtered range, newest first, streamed from a
 * server-side cursor (pg-query-stream) with backpressure, so memory stays flat whatever the size.
 * The whole export costs one rate-limit unit.
 */
export function exportActivityLogsHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const project = required(req.project, 'project');
    const environment = required(req.environment, 'environment');
    const query = parseExportActivityLogsQuery(req.query);
    const toItem = new Transform({
      writableObjectMode: true,
      readableObjectMode: query.format === 'csv',
      transform(row: ActivityLogRow, _encoding, callback) {
        const item = activityLogItem(row, environment.name);
        callback(null, query.format === 'csv' ? csvRecord(item) : `${JSON.stringify(item)}\n`);
      },
    });
    const stem = `activity-logs-${project.name}-${environment.name}`.replace(/[^\w.-]+/g, '_');
    const stages =
      query.format === 'csv'
        ? [toItem, stringify({ header: true, columns: [...EXPORT_CSV_COLUMNS] })]
        : [toItem];
    if (query.format === 'csv') res.attachment(`${stem}.csv`).type('text/csv; charset=utf-8');
    else res.attachment(`${stem}.ndjson`).type('application/x-ndjson; charset=utf-8');
    try {
      // A backfill follows the client's pace for as long as it takes: the pool's statement
      // timeout would cut the cursor mid-way, so this read-only transaction lifts it.
      await ctx.knex.transaction(
        async (trx) => {
          await trx.raw('SET LOCAL statement_timeout = 0');
          const rows = activityLogQuery(
            trx,
            toActivityLogFilters(query, project.id, environment.id),
          ).stream({ highWaterMark: 500 });
          await pipeline([rows, ...stages, res]);
        },
        { readOnly: true },
      );
    } catch (error) {
      // A client that hangs up mid-export is not a server error: the pipeline has already
      // closed the database cursor, and the transaction ended.
      if (req.socket.destroyed) {
        req.log?.info({ path: req.path }, 'export stopped: the client went away');
        return;
      }
      throw error;
    }
  };
}
