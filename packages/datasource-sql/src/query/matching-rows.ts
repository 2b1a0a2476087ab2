import { UnprocessableError, type ConditionTree } from '@canopy/agent-core/toolkit';
import type { Knex } from 'knex';
import type { TableModel } from '../schema/table-model';
import { QueryContext, tableName, type SqlEnvironment } from './query-context';
import { recordCondition, type TranslationOptions } from './translate-condition';

/**
 * Restricts an UPDATE or DELETE on the model's table to the rows a validated condition matches.
 * A condition on the table's own columns goes straight into WHERE; one that reaches through
 * relations becomes `WHERE (pk) IN (SELECT pk … JOIN …)`, still one statement (wrapped in a
 * derived table on MySQL/MariaDB, which refuse a subquery on the table being written).
 */
export function restrictToFilter(
  environment: SqlEnvironment,
  model: TableModel,
  statement: Knex.QueryBuilder,
  tree: ConditionTree | null,
  options: TranslationOptions,
): Knex.QueryBuilder {
  const direct = new QueryContext(environment, model);
  const condition = recordCondition(direct, tree, options);
  if (!direct.hasJoins) return condition.replay(statement);
  if (model.primaryKey.length === 0) {
    throw new UnprocessableError(
      `Cannot write '${model.name}' through a filter on relations: the table has no primary key.`,
    );
  }
  // Through relations the columns are those of the aliased sub-query: recorded again there.
  const inner = new QueryContext(environment, model, '__root');
  const subquery = environment.knex
    .from({ __root: tableName(environment, model.name) })
    .select(model.primaryKey.map((column) => `__root.${column}`));
  recordCondition(inner, tree, options).replay(subquery);
  inner.applyJoins(subquery);
  const columns = model.primaryKey.map((column) => `${model.name}.${column}`);
  const mysql = environment.dialect === 'mysql' || environment.dialect === 'mariadb';
  const source = mysql ? environment.knex.select('*').from(subquery.as('__rows')) : subquery;
  const [single] = columns;
  return columns.length === 1 && single
    ? statement.whereIn(single, source)
    : statement.whereIn(columns, source);
}
