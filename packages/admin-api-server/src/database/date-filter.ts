import type { Knex } from 'knex';
import type { DateFilter } from '../validation/query-schemas';

const SQL_OPERATORS = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/** Adds `column <op> value` for each given bound; `.lte`/`.gte` are inclusive, `.lt`/`.gt` not. */
export function applyDateFilter(
  query: Knex.QueryBuilder,
  column: string,
  filter: DateFilter,
): Knex.QueryBuilder {
  for (const [operator, value] of Object.entries(filter) as [keyof DateFilter, string][]) {
    query.where(column, SQL_OPERATORS[operator], new Date(value));
  }
  return query;
}
