import { ACTIVITY_LOG_ACTIONS } from '@canopy/platform-protocol';

/** Activity and admin logs of the public API, as the console lists and exports them. */
export interface ActivityLog {
  id: string;
  type: 'read' | 'write';
  action: string;
  label?: string;
  recordIds: string[];
  createdAt: string;
  user: { id: number; email: string; username: string };
  team: { name: string };
  collection?: { name: string };
  /**
   * The outcome of a log opened before its operation and closed after it: `failed` when the
   * operation failed, `pending` while it runs. Absent for logs reported after a success.
   */
  status?: 'pending' | 'completed' | 'failed';
}

/** How a log's outcome reads in the console. */
export function outcomeOf(log: Pick<ActivityLog, 'status'>): {
  label: string;
  color: string;
} {
  if (log.status === 'failed') return { label: 'Failed', color: 'red.8' };
  if (log.status === 'pending') return { label: 'In progress', color: 'dimmed' };
  return { label: 'Succeeded', color: 'teal.9' };
}

/**
 * The filters the activity log is read with: reads (index, search, related data…) are hidden
 * unless asked for, so that changes stand out; a type chosen by name wins.
 */
export function effectiveFilters(filters: ActivityFilters, showReads: boolean): ActivityFilters {
  if (filters.type || showReads) return filters;
  return { ...filters, type: 'write' };
}

export interface AdminLog {
  id: string | number;
  type: string;
  resource: string;
  initiator: string;
  createdAt: string;
  user?: { email: string; username: string } | null;
  previousValue?: unknown;
  newValue?: unknown;
}

/** The actions an activity log may record, to filter on. */
export const ACTIONS = ACTIVITY_LOG_ACTIONS;

export interface ActivityFilters {
  userEmail?: string;
  teamName?: string;
  collectionName?: string;
  recordId?: string;
  action?: string;
  type?: string;
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
  ] as const) {
    const value = filters[key]?.trim();
    if (value) query.set(key, value);
  }
  if (filters.from) query.set('createdAt.gte', filters.from);
  if (filters.to) query.set('createdAt.lt', filters.to);
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  return query.toString();
}
