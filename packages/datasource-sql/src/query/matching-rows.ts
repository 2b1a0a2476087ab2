import { UnprocessableError, type Filter } from '@canopy/agent-core';
import type { Knex } from 'knex';
import type { TableModel } from '../schema/table-model';
import { filterCondition } from './filter-condition';
import { QueryContext, tableName, type SqlEnvironment } from './query-context';
import { applyCondition, type TranslationOptions } from './translate-condition';
import { validateCondition } from './validate-condition';

/**
 * Restricts an UPDATE or DELETE on the model's table to the rows a filter matches. A filter on
 * the table's own columns goes straight into WHERE; one that reaches through relations becomes
 * `WHERE (pk) IN (SELECT pk … JOIN …)`, still one statement (wrapped in a derived table on
 * MySQL/MariaDB, which refuse a subquery on the table being written).
 */
export function restrictToFilter(
  environment: SqlEnvironment,
  model: TableModel,
  statement: Knex.QueryBuilder,
  filter: Filter | null,
  options: TranslationOptions,
): Knex.QueryBuilder {
  const tree = filterCondition(filter, model, environment.models, options.timezone);
  const probe = new QueryContext(environment, model);
  validateCondition(probe, tree);
  if (!probe.hasJoins) {
    return applyCondition(statement, new QueryContext(environment, model), tree, options);
  }
  if (model.primaryKey.length === 0) {
    throw new UnprocessableError(
      `Cannot write '${model.name}' through a filter on relations: the table has no primary key.`,
    );
  }
  const inner = new QueryContext(environment, model, '__root');
  // Resolving every path now records the joins (knex runs WHERE callbacks only when compiling).
  validateCondition(inner, tree);
  const subquery = environment.knex
    .from({ __root: tableName(environment, model.name) })
    .select(model.primaryKey.map((column) => `__root.${column}`));
  applyCondition(subquery, inner, tree, options);
  inner.applyJoins(subquery);
  const columns = model.primaryKey.map((column) => `${model.name}.${column}`);
  const mysql = environment.dialect === 'mysql' || environment.dialect === 'mariadb';
  const source = mysql ? environment.knex.select('*').from(subquery.as('__rows')) : subquery;
  const [single] = columns;
  return columns.length === 1 && single
    ? statement.whereIn(single, source)
    : statement.whereIn(columns, source);
}
