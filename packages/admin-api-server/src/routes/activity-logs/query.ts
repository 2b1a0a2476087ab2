import type { ActivityLogFilterParameters } from '@canopy/platform-protocol';
import { ACTIVITY_ACTIONS } from '../../store/activity-log-writer';
import type { ActivityLogFilters } from '../../store/activity-log-queries';
import { queryParser, type JsonSchema } from '../../validation/ajv';
import {
  CURSOR_PROPERTY,
  LIMIT_PROPERTY,
  RECORD_FILTER_PROPERTIES,
  USER_FILTER_PROPERTIES,
  dateFilterOf,
  dateFilterProperties,
} from '../../validation/query-schemas';

/** Filters every activity-log read accepts (list, export, integrity share the first part). */
export const ACTIVITY_FILTER_PROPERTIES: Record<string, JsonSchema> = {
  ...USER_FILTER_PROPERTIES,
  ...RECORD_FILTER_PROPERTIES,
  action: { type: 'string', enum: [...ACTIVITY_ACTIONS], description: 'The action performed' },
  type: { type: 'string', enum: ['read', 'write'], description: 'The type of log' },
  status: {
    type: 'string',
    enum: ['pending', 'completed', 'failed'],
    description: 'The outcome; completed includes the logs reported once their operation succeeded',
  },
  ...dateFilterProperties('createdAt'),
};

/** Query schema of the list endpoint. */
export const LIST_ACTIVITY_LOGS_QUERY: JsonSchema = {
  type: 'object',
  properties: { limit: LIMIT_PROPERTY, ...ACTIVITY_FILTER_PROPERTIES, cursor: CURSOR_PROPERTY },
  additionalProperties: false,
};

/** Query schema of the export endpoint. */
export const EXPORT_ACTIVITY_LOGS_QUERY: JsonSchema = {
  type: 'object',
  properties: {
    format: {
      type: 'string',
      enum: ['ndjson', 'csv'],
      default: 'ndjson',
      description: 'NDJSON (one activity log item per line) or CSV',
    },
    ...ACTIVITY_FILTER_PROPERTIES,
  },
  additionalProperties: false,
};

/** The parsed query of activity-log reads. */
export type ActivityLogQuery = Record<string, unknown> &
  ActivityLogFilterParameters & {
    limit?: number;
    cursor?: string;
    format?: 'ndjson' | 'csv';
  };

/** Parsers of each query. */
export const parseListActivityLogsQuery = queryParser<ActivityLogQuery>(LIST_ACTIVITY_LOGS_QUERY);
export const parseExportActivityLogsQuery = queryParser<ActivityLogQuery>(
  EXPORT_ACTIVITY_LOGS_QUERY,
);

/** Store filters from a parsed query. */
export function toActivityLogFilters(
  query: ActivityLogQuery,
  projectId: number,
  environmentId: number,
): ActivityLogFilters {
  return {
    projectId,
    environmentId,
    userEmail: query.userEmail,
    userId: query.userId,
    teamName: query.teamName,
    collectionName: query.collectionName,
    recordId: query.recordId,
    action: query.action,
    type: query.type,
    status: query.status,
    createdAt: dateFilterOf(query, 'createdAt'),
  };
}
