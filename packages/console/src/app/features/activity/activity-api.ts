import {
  ACTIVITY_LOG_ACTIONS,
  type ActivityLogFilterParameters,
  type ActivityLogItem,
  type AdminLogItem,
} from '@canopy/platform-protocol';

/** Activity and admin logs of the public API, as the console lists and exports them. */
export type ActivityLog = ActivityLogItem;
export type AdminLog = AdminLogItem;

/** The outcomes to filter on: the `status` values of the public API, in the user's words. */
export const OUTCOMES = [
  { value: 'completed', label: 'Succeeded' },
  { value: 'failed', label: 'Failed' },
  { value: 'pending', label: 'In progress' },
];

/**
 * How a log's outcome reads in the console: its words, its kind (the colour, which the
 * `.activity-outcome` styles give in each theme) and, for a failure, the reason when known.
 */
export function outcomeOf(log: Pick<ActivityLog, 'status' | 'errorMessage'>): {
  label: string;
  kind: 'failed' | 'pending' | 'succeeded';
  reason?: string;
} {
  if (log.status === 'failed') {
    return log.errorMessage
      ? { label: 'Failed', kind: 'failed', reason: log.errorMessage }
      : { label: 'Failed', kind: 'failed' };
  }
  if (log.status === 'pending') return { label: 'In progress', kind: 'pending' };
  return { label: 'Succeeded', kind: 'succeeded' };
}

/**
 * The filters the activity log is read with: reads (index, search, related data…) are hidden
 * unless asked for, so that changes stand out; a type chosen by name wins.
 */
export function effectiveFilters(filters: ActivityFilters, showReads: boolean): ActivityFilters {
  if (filters.type || showReads) return filters;
  return { ...filters, type: 'write' };
}

/** The actions an activity log may record, to filter on. */
export const ACTIONS = ACTIVITY_LOG_ACTIONS;

/** The activity page's filters: the list's filter parameters, and a time range. */
export interface ActivityFilters extends Omit<ActivityLogFilterParameters, 'userId'> {
  /** ISO date-times. */
  from?: string;
  to?: string;
}

/** The query string of the activity-log list and export routes for these filters. */
export function activityQuery(filters: ActivityFilters, extra: Record<string, string> = {}) {
  const query = new URLSearchParams();
  for (const key of [
    'userEmail',
    'teamName',
    'collectionName',
    'recordId',
    'action',
    'type',
    'status',
  ] as const) {
    const value = filters[key]?.trim();
    if (value) query.set(key, value);
  }
  if (filters.from) query.set('createdAt.gte', filters.from);
  if (filters.to) query.set('createdAt.lt', filters.to);
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  return query.toString();
}
