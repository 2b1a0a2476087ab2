import type { Knex } from 'knex';
import type { TimeCursor } from './cursor';
import { applyDateFilter } from '../database/date-filter';
import type { DateFilter } from '../validation/query-schemas';

/** Filters of the admin-log list. */
export interface AdminLogFilters {
  projectId: number;
  userEmail?: string;
  userId?: number;
  type?: string;
  initiator?: string;
  resource?: string;
  createdAt: DateFilter;
  after?: TimeCursor;
}

/** An admin log joined with its administrator. */
export interface AdminLogRow {
  id: string;
  type: string;
  resource: string;
  initiator: string;
  previous_value: Record<string, unknown> | null;
  new_value: Record<string, unknown> | null;
  created_at: Date;
  user_id: number | null;
  user_email: string | null;
  user_username: string | null;
}

/** One page of admin logs, newest first. */
export async function listAdminLogs(
  knex: Knex,
  filters: AdminLogFilters,
  limit: number,
): Promise<{ rows: AdminLogRow[]; hasMore: boolean }> {
  const query = knex('admin_logs as l')
    .leftJoin('users as u', 'u.id', 'l.user_id')
    .where('l.project_id', filters.projectId)
    .select(
      'l.id',
      'l.type',
      'l.resource',
      'l.initiator',
      'l.previous_value',
      'l.new_value',
      'l.created_at',
      'u.id as user_id',
      'u.email as user_email',
      'u.username as user_username',
    );
  if (filters.userId !== undefined) query.where('l.user_id', filters.userId);
  if (filters.userEmail !== undefined) {
    query.where(
      'l.user_id',
      knex('users').whereRaw('lower(email) = lower(?)', [filters.userEmail]).select('id'),
    );
  }
  if (filters.type !== undefined) query.where('l.type', filters.type);
  if (filters.initiator !== undefined) query.where('l.initiator', filters.initiator);
  if (filters.resource !== undefined) query.where('l.resource', filters.resource);
  applyDateFilter(query, 'l.created_at', filters.createdAt);
  if (filters.after) {
    query.whereRaw('(l.created_at, l.id) < (?, ?)', [filters.after.createdAt, filters.after.id]);
  }
  const rows: AdminLogRow[] = await query
    .orderBy([
      { column: 'l.created_at', order: 'desc' },
      { column: 'l.id', order: 'desc' },
    ])
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}
