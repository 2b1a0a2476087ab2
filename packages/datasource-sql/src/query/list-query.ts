import {
  ValidationError,
  type ConditionTree,
  type Page,
  type PaginatedFilter,
  type Projection,
  type RecordData,
} from '@canopy/agent-core/toolkit';
import type { Knex } from 'knex';
import { createRowReader, type Selected } from '../collection/record-reader';
import type { TableModel } from '../schema/table-model';
import type { ConditionRecorder } from './condition-recorder';
import { QueryContext, tableName, type SqlEnvironment } from './query-context';
import { runCachedSelect } from './statement-runner';
import { shapeKey } from './statement-cache';
import { recordCondition, type TranslationOptions } from './translate-condition';

type RowReader = (rows: Record<string, unknown>[]) => RecordData[];

/** The page's LIMIT/OFFSET as knex binds them (after the WHERE values), and their shape. */
function pageBindings(
  environment: SqlEnvironment,
  page: Page | null | undefined,
): { shape: string; values: unknown[] } {
  const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
  if (page && (!count(page.skip) || (page.limit !== null && !count(page.limit)))) {
    throw new ValidationError(
      `Invalid page (skip ${String(page.skip)}, limit ${String(page.limit)}): use non-negative integers.`,
    );
  }
  const values: unknown[] = [];
  let shape = '';
  if (page?.limit !== null && page?.limit !== undefined) {
    values.push(page.limit);
    shape += 'limit';
  }
  if (page?.skip) {
    if (page.limit === null && environment.dialect !== 'postgres') {
      values.push(environment.dialect === 'sqlite' ? -1 : Number.MAX_SAFE_INTEGER);
      shape += 'all';
    }
    values.push(page.skip);
    shape += 'offset';
  }
  return { shape, values };
}

/**
 * Builds the one SELECT of a list with knex: projected columns (relation paths LEFT JOINed in
 * the same query), WHERE replayed from the recorded condition (its paths already resolved in
 * `context`), ORDER BY (relation paths too), LIMIT/OFFSET.
 */
function buildListQuery(
  context: QueryContext,
  condition: ConditionRecorder,
  filter: PaginatedFilter,
  projection: Projection,
): { query: Knex.QueryBuilder; reader: RowReader } {
  const { environment, root: model } = context;
  const selected: Selected[] = [];
  const columns: Record<string, string> = {};
  const relations = new Set<string>();
  for (const path of new Set(projection)) {
    const resolved = context.column(path);
    const alias = `c${selected.length}`;
    selected.push({ alias, path, column: resolved.column });
    columns[alias] = resolved.ref;
    const parts = path.split(':');
    for (let index = 1; index < parts.length; index += 1) {
      relations.add(parts.slice(0, index).join(':'));
    }
  }
  for (const relation of relations) {
    const { alias, targetColumn } = context.relation(relation);
    const marker = `r${selected.length}`;
    selected.push({ alias: marker, path: relation, relation });
    columns[marker] = `${alias}.${targetColumn}`;
  }

  const query = environment.knex.from(tableName(environment, model.name));
  query.select(Object.keys(columns).length > 0 ? columns : environment.knex.raw('1 AS c'));
  condition.replay(query);
  // The sort was validated (sortable columns, boolean directions) by the collection.
  for (const clause of filter.sort ?? []) {
    query.orderBy(context.column(clause.field).ref, clause.ascending ? 'asc' : 'desc');
  }
  // The page was validated by pageBindings.
  const page = filter.page;
  if (page?.limit !== null && page?.limit !== undefined) query.limit(page.limit);
  if (page?.skip) {
    // MySQL and SQLite accept OFFSET only after a LIMIT.
    if (page.limit === null && environment.dialect !== 'postgres') {
      query.limit(environment.dialect === 'sqlite' ? -1 : Number.MAX_SAFE_INTEGER);
    }
    query.offset(page.skip);
  }
  context.applyJoins(query);
  return { query, reader: createRowReader(selected, environment.dialect) };
}

/**
 * The shape of a list beyond its condition: collection, projection, sort and page clauses.
 * `undefined` when a part is not a plain string/boolean (the builder then reports it).
 */
function listShape(
  model: TableModel,
  filter: PaginatedFilter,
  projection: Projection,
  page: string,
): string[] | undefined {
  const parts = ['list', model.name, page, String(projection.length)];
  for (const path of projection) {
    if (typeof path !== 'string') return undefined;
    parts.push(path);
  }
  const sort = filter.sort ?? [];
  parts.push(String(sort.length));
  for (const clause of sort) {
    if (typeof clause.field !== 'string' || typeof clause.ascending !== 'boolean') return undefined;
    parts.push(clause.field, clause.ascending ? 'asc' : 'desc');
  }
  parts.push('where');
  return parts;
}

/**
 * Lists records in one SELECT. `tree` is the filter's condition (search included), validated.
 * It is walked once: the recording gives the statement's shape and values, and is replayed into
 * knex when the statement must be built. The SQL text of each query shape (collection,
 * projection, condition shape, sort, page clauses) is compiled by knex once and kept in the
 * environment's statement cache with its row reader; later lists of the same shape only bind
 * their values.
 */
export async function listRecords(
  environment: SqlEnvironment,
  model: TableModel,
  tree: ConditionTree | null,
  filter: PaginatedFilter,
  projection: Projection,
  options: TranslationOptions,
): Promise<RecordData[]> {
  const context = new QueryContext(environment, model);
  const page = pageBindings(environment, filter.page);
  const condition = recordCondition(context, tree, options);
  const shape = environment.statements
    ? listShape(model, filter, projection, page.shape)
    : undefined;
  const key = shape && condition.cacheable ? shapeKey(shape, condition.shape) : undefined;
  const { rows, reader } = await runCachedSelect<RowReader>(
    environment,
    key,
    condition.values.concat(page.values),
    () => buildListQuery(context, condition, filter, projection),
  );
  return reader(rows);
}
