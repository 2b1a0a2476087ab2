import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ActivityLogItem } from '@canopy/platform-protocol';
import type { RequestHandler } from 'express';
import { required, type ServerContext } from '../../context';
import { csvWriter } from '../../http/csv';
import { DEFAULT_EXPORT_LIMITS, ExportSlots, stallGuard } from '../../http/export-limits';
import { activityLogQuery, type ActivityLogRow } from '../../store/activity-log-queries';
import { parseExportActivityLogsQuery, toActivityLogFilters } from './query';
import { activityLogItem } from './serialize';

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
  'status',
  'errorMessage',
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
    item.status ?? '',
    item.errorMessage ?? '',
  ];
}

/**
 * `GET …/activity-logs/export`: every log of the filtered range, newest first, streamed from a
 * server-side cursor (pg-query-stream) with backpressure, so memory stays flat whatever the size.
 * The whole export costs one rate-limit unit. Exports are bounded (`ctx.config.exports`): a few
 * at once per server and per token (429 past that), cut when the client reads nothing for the
 * idle timeout, and never longer than the maximum duration — so they never hold every database
 * connection, and health and lists keep answering.
 */
export function exportActivityLogsHandler(ctx: ServerContext): RequestHandler {
  const limits = { ...DEFAULT_EXPORT_LIMITS, ...ctx.config.exports };
  const slots = new ExportSlots(limits);
  return async (req, res) => {
    const project = required(req.project, 'project');
    const environment = required(req.environment, 'environment');
    const auth = required(req.platformAuth, 'auth');
    const query = parseExportActivityLogsQuery(req.query);
    const release = slots.acquire(`${auth.kind}:${auth.tokenId ?? auth.userId}`);
    const toItem = new Transform({
      writableObjectMode: true,
      readableObjectMode: query.format === 'csv',
      transform(row: ActivityLogRow, _encoding, callback) {
        const item = activityLogItem(row, environment.name);
        callback(null, query.format === 'csv' ? csvRecord(item) : `${JSON.stringify(item)}\n`);
      },
    });
    const stem = `activity-logs-${project.name}-${environment.name}`.replace(/[^\w.-]+/g, '_');
    if (query.format === 'csv') res.attachment(`${stem}.csv`).type('text/csv; charset=utf-8');
    else res.attachment(`${stem}.ndjson`).type('application/x-ndjson; charset=utf-8');
    const stop = new AbortController();
    const stages = [
      toItem,
      ...(query.format === 'csv' ? [csvWriter(EXPORT_CSV_COLUMNS)] : []),
      stallGuard(limits.idleTimeoutSeconds * 1000, () => stop.abort()),
    ];
    try {
      // The cursor is one statement until its last row: its timeout is the export's longest run.
      await ctx.knex.transaction(
        async (trx) => {
          await trx.raw(`SET LOCAL statement_timeout = ${limits.maxDurationSeconds * 1000}`);
          const rows = activityLogQuery(
            trx,
            toActivityLogFilters(query, project.id, environment.id),
          ).stream({ highWaterMark: 500 });
          await pipeline([rows, ...stages, res], { signal: stop.signal });
        },
        { readOnly: true },
      );
    } catch (error) {
      // A client that hangs up or stops reading mid-export is not a server error: the pipeline
      // has closed the database cursor and the response, and the transaction ended.
      if (stop.signal.aborted) {
        req.log?.info({ path: req.path }, 'export cut: the client read nothing for too long');
        return;
      }
      if (req.socket.destroyed) {
        req.log?.info({ path: req.path }, 'export stopped: the client went away');
        return;
      }
      throw error;
    } finally {
      release();
    }
  };
}
