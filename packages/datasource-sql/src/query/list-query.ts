import { ValidationError, type PaginatedFilter, type Projection } from '@canopy/agent-core';
import type { Knex } from 'knex';
import type { Selected } from '../collection/record-reader';
import type { TableModel } from '../schema/table-model';
import { filterCondition } from './filter-condition';
import { QueryContext, tableName, type SqlEnvironment } from './query-context';
import { applyCondition, type TranslationOptions } from './translate-condition';
import { validateCondition } from './validate-condition';

/**
 * Builds the one SELECT of a list: projected columns (relation paths LEFT JOINed in the same
 * query), WHERE from the filter and search, ORDER BY (relation paths too), LIMIT/OFFSET.
 */
export function buildListQuery(
  environment: SqlEnvironment,
  model: TableModel,
  filter: PaginatedFilter,
  projection: Projection,
  options: TranslationOptions,
): { query: Knex.QueryBuilder; selected: Selected[] } {
  const context = new QueryContext(environment, model);
  const tree = filterCondition(filter, model, environment.models);
  validateCondition(context, tree);

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
  applyCondition(query, context, tree, options);
  for (const clause of filter.sort ?? []) {
    const resolved = context.column(clause.field);
    const schema = resolved.model.fields[resolved.column.name];
    if (schema?.type === 'Column' && schema.isSortable === false) {
      throw new ValidationError(`The field '${clause.field}' of '${model.name}' is not sortable.`);
    }
    if (typeof clause.ascending !== 'boolean') {
      throw new ValidationError(
        `Invalid sort.ascending value for '${clause.field}': use true or false.`,
      );
    }
    query.orderBy(resolved.ref, clause.ascending ? 'asc' : 'desc');
  }
  const page = filter.page;
  const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
  if (page && (!count(page.skip) || (page.limit !== null && !count(page.limit)))) {
    throw new ValidationError(
      `Invalid page (skip ${String(page.skip)}, limit ${String(page.limit)}): use non-negative integers.`,
    );
  }
  if (page?.limit !== null && page?.limit !== undefined) query.limit(page.limit);
  if (page?.skip) {
    // MySQL and SQLite accept OFFSET only after a LIMIT.
    if (page.limit === null && environment.dialect !== 'postgres') {
      query.limit(environment.dialect === 'sqlite' ? -1 : Number.MAX_SAFE_INTEGER);
    }
    query.offset(page.skip);
  }
  context.applyJoins(query);
  return { query, selected };
}
