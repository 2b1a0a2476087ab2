import { isDeepStrictEqual } from 'node:util';
import type { ActivityLogFilterParameters } from '@canopy/platform-protocol';
import type { Knex } from 'knex';
import pg from 'pg';
import { applyDateFilter } from '../database/date-filter';
import { TIMESTAMPTZ_OID, timestamptzToIso } from './iso-timestamps';
import { TEXT_ARRAY_OID, textArrayToJson } from './text-array-json';
import type { TimeCursor } from './cursor';
import type { DateFilter } from '../validation/query-schemas';

/**
 * Filters of the activity-log list (and its export and integrity range); `status: completed`
 * includes the logs reported once their operation succeeded.
 */
export interface ActivityLogFilters extends ActivityLogFilterParameters {
  environmentId: number;
  projectId: number;
  createdAt: DateFilter;
  /** Keyset position: only rows strictly after it in `(created_at DESC, id DESC)` order. */
  after?: TimeCursor;
}

/** A joined activity-log row, as read for the API. */
export interface ActivityLogRow {
  id: string;
  /** The author's id of the log (an agent's), its public id when set. */
  external_id: string | null;
  type: 'read' | 'write';
  action: string;
  label: string | null;
  record_ids: string[];
  collection_name: string | null;
  inbox_name: string | null;
  workflow: Record<string, string> | null;
  created_at: Date;
  user_id: number;
  user_email: string;
  user_username: string;
  team_name: string;
  /**
   * The outcome of a log opened before its operation and closed after it (an MCP tool call):
   * `pending`, `completed` or `failed`; `null` for a log reported once its operation succeeded.
   */
  status: 'pending' | 'completed' | 'failed' | null;
  /** Why it failed, when it did and the reporter said. */
  error_message: string | null;
}

/**
 * A row of a list page, its values as the page writes them: `created_at` as its ISO 8601 string,
 * `record_ids` as its JSON text.
 */
export type ActivityLogPageRow = Omit<ActivityLogRow, 'created_at' | 'record_ids'> & {
  created_at: string;
  record_ids: string;
};

/**
 * The filtered, ordered query. Users and teams given by name are resolved in sub-selects so that
 * the planner sees a plain `user_id = $n` and can use the `(environment_id, user_id, …)` indexes.
 */
export function activityLogQuery(knex: Knex, filters: ActivityLogFilters): Knex.QueryBuilder {
  const query = knex('activity_logs as al')
    .join('users as u', 'u.id', 'al.user_id')
    .join('teams as t', 't.id', 'al.team_id')
    .leftJoin('activity_log_requests as r', function onRequest() {
      this.on('r.environment_id', 'al.environment_id').andOn('r.external_id', 'al.external_id');
    })
    .where('al.environment_id', filters.environmentId)
    .select(
      'al.id',
      'al.external_id',
      'al.type',
      'al.action',
      'al.label',
      'al.record_ids',
      'al.collection_name',
      'al.inbox_name',
      'al.workflow',
      'al.created_at',
      'u.id as user_id',
      'u.email as user_email',
      'u.username as user_username',
      't.name as team_name',
      'r.status',
      'r.error_message',
    );
  if (filters.userId !== undefined) query.where('al.user_id', filters.userId);
  if (filters.userEmail !== undefined) {
    query.where(
      'al.user_id',
      knex('users').whereRaw('lower(email) = lower(?)', [filters.userEmail]).select('id'),
    );
  }
  if (filters.teamName !== undefined) {
    query.where(
      'al.team_id',
      knex('teams').where({ project_id: filters.projectId, name: filters.teamName }).select('id'),
    );
  }
  if (filters.collectionName !== undefined)
    query.where('al.collection_name', filters.collectionName);
  if (filters.recordId !== undefined) query.whereRaw('? = ANY(al.record_ids)', [filters.recordId]);
  if (filters.action !== undefined) query.where('al.action', filters.action);
  if (filters.type !== undefined) query.where('al.type', filters.type);
  if (filters.status !== undefined) {
    query.whereRaw("coalesce(r.status, 'completed') = ?", [filters.status]);
  }
  applyDateFilter(query, 'al.created_at', filters.createdAt);
  if (filters.after) {
    // The row comparison is the keyset; the plain bound on created_at (implied by it) lets the
    // planner prune the monthly partitions newer than the cursor.
    query.where('al.created_at', '<=', filters.after.createdAt);
    query.whereRaw('(al.created_at, al.id) < (?, ?)', [filters.after.createdAt, filters.after.id]);
  }
  return query.orderBy([
    { column: 'al.created_at', order: 'desc' },
    { column: 'al.id', order: 'desc' },
  ]);
}

/**
 * The bindings of `activityLogQuery(knex, filters).limit(limit)`, in the order knex places them:
 * what a cached statement of the same shape is run with.
 */
function listBindings(filters: ActivityLogFilters, limit: number): unknown[] {
  const bindings: unknown[] = [filters.environmentId];
  if (filters.userId !== undefined) bindings.push(filters.userId);
  if (filters.userEmail !== undefined) bindings.push(filters.userEmail);
  if (filters.teamName !== undefined) bindings.push(filters.projectId, filters.teamName);
  if (filters.collectionName !== undefined) bindings.push(filters.collectionName);
  if (filters.recordId !== undefined) bindings.push(filters.recordId);
  if (filters.action !== undefined) bindings.push(filters.action);
  if (filters.type !== undefined) bindings.push(filters.type);
  if (filters.status !== undefined) bindings.push(filters.status);
  for (const value of Object.values(filters.createdAt)) bindings.push(new Date(value as string));
  if (filters.after) {
    bindings.push(filters.after.createdAt, filters.after.createdAt, filters.after.id);
  }
  bindings.push(limit);
  return bindings;
}

/** Which filters are present (and in which order the date bounds come): one SQL text per shape. */
function shapeOf(filters: ActivityLogFilters): string {
  let shape = '';
  if (filters.userId !== undefined) shape += 'u';
  if (filters.userEmail !== undefined) shape += 'e';
  if (filters.teamName !== undefined) shape += 't';
  if (filters.collectionName !== undefined) shape += 'c';
  if (filters.recordId !== undefined) shape += 'r';
  if (filters.action !== undefined) shape += 'a';
  if (filters.type !== undefined) shape += 'y';
  if (filters.status !== undefined) shape += 's';
  if (filters.after) shape += 'k';
  return `${shape}:${Object.keys(filters.createdAt).join(',')}`;
}

/** SQL texts of list pages per knex client and query shape (at most a few hundred shapes). */
const listStatements = new WeakMap<object, Map<string, string>>();

/**
 * Runs a list page's statement. The SQL text of each query shape is compiled by knex once
 * ({@link activityLogQuery}) and then reused with the bindings of {@link listBindings}: a shape is
 * cached only when those bindings equal the ones knex produced, so the cached text can never be
 * run with misplaced values. It runs on a connection of knex's pool, without knex's query
 * builder and runner; inside a transaction, or on a knex that post-processes responses, the builder
 * runs as before.
 */
async function selectListPage(
  knex: Knex,
  filters: ActivityLogFilters,
  limit: number,
): Promise<ActivityLogPageRow[]> {
  const direct =
    !knex.isTransaction &&
    knex.client.dialect === 'postgresql' &&
    !knex.client.config?.postProcessResponse;
  if (!direct) return isoRows(await activityLogQuery(knex, filters).limit(limit));
  let statements = listStatements.get(knex.client);
  if (!statements) {
    statements = new Map();
    listStatements.set(knex.client, statements);
  }
  const shape = shapeOf(filters);
  const bindings = listBindings(filters, limit);
  let sql = statements.get(shape);
  if (sql === undefined) {
    const compiled = activityLogQuery(knex, filters).limit(limit).toSQL().toNative();
    if (!isDeepStrictEqual(compiled.bindings, bindings)) {
      return isoRows(await activityLogQuery(knex, filters).limit(limit));
    }
    sql = compiled.sql;
    statements.set(shape, sql);
  }
  const client = knex.client as KnexClient;
  const connection = await client.acquireConnection();
  try {
    const result = await connection.query({
      text: sql,
      values: bindings,
      types: listPageTypes,
      rowMode: 'array',
    });
    return pageRows(result.fields, result.rows);
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * The `types` option of a list page's query: `created_at` comes back as its ISO string and
 * `record_ids` as its JSON text, each rewritten from PostgreSQL's text form without a `Date` or an
 * array in between (iso-timestamps.ts, text-array-json.ts); every other column as pg's global
 * settings parse it.
 */
const listPageTypes = {
  getTypeParser(oid: number, format?: string): (value: string) => unknown {
    if (format !== 'binary') {
      if (oid === TIMESTAMPTZ_OID) return timestamptzToIso;
      if (oid === TEXT_ARRAY_OID) return textArrayToJson;
    }
    return (pg.types.getTypeParser as (oid: number, format?: string) => (value: string) => unknown)(
      oid,
      format,
    );
  },
};

/** The columns of {@link activityLogQuery}, in its order. */
const PAGE_COLUMNS = [
  'id',
  'external_id',
  'type',
  'action',
  'label',
  'record_ids',
  'collection_name',
  'inbox_name',
  'workflow',
  'created_at',
  'user_id',
  'user_email',
  'user_username',
  'team_name',
  'status',
  'error_message',
];

/**
 * A page's rows from the arrays pg gives in `rowMode: 'array'` (cheaper for pg than its row
 * objects): one object literal of the same shape per row when the columns are the query's, in its
 * order; by the columns' names otherwise.
 */
function pageRows(fields: { name: string }[], rows: unknown[][]): ActivityLogPageRow[] {
  if (
    fields.length !== PAGE_COLUMNS.length ||
    fields.some((field, index) => field.name !== PAGE_COLUMNS[index])
  ) {
    return rows.map(
      (row) =>
        Object.fromEntries(
          fields.map((field, index) => [field.name, row[index]]),
        ) as ActivityLogPageRow,
    );
  }
  return rows.map((row) => ({
    id: row[0] as string,
    external_id: row[1] as string | null,
    type: row[2] as 'read' | 'write',
    action: row[3] as string,
    label: row[4] as string | null,
    record_ids: row[5] as string,
    collection_name: row[6] as string | null,
    inbox_name: row[7] as string | null,
    workflow: row[8] as Record<string, string> | null,
    created_at: row[9] as string,
    user_id: row[10] as number,
    user_email: row[11] as string,
    user_username: row[12] as string,
    team_name: row[13] as string,
    status: row[14] as ActivityLogRow['status'],
    error_message: row[15] as string | null,
  }));
}

/** Rows read through knex's builder, their values as a list page's rows carry them. */
function isoRows(rows: ActivityLogRow[]): ActivityLogPageRow[] {
  return rows.map((row) => ({
    ...row,
    created_at: row.created_at.toISOString(),
    record_ids: JSON.stringify(row.record_ids),
  }));
}

/** The part of knex's pg client a cached statement runs on. */
interface KnexClient {
  acquireConnection(): Promise<{
    query(config: {
      text: string;
      values: unknown[];
      types: typeof listPageTypes;
      rowMode: 'array';
    }): Promise<{ fields: { name: string }[]; rows: unknown[][] }>;
  }>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/** One page: `limit` rows (values as the page writes them) and whether more follow. */
export async function listActivityLogPage(
  knex: Knex,
  filters: ActivityLogFilters,
  limit: number,
): Promise<{ rows: ActivityLogPageRow[]; hasMore: boolean }> {
  const rows = await selectListPage(knex, filters, limit + 1);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}
