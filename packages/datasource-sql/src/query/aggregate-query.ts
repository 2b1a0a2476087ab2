import {
  DATE_OPERATIONS,
  ValidationError,
  type AggregateResult,
  type Aggregation,
  type Filter,
} from '@canopy/agent-core';
import type { Knex } from 'knex';
import type { IntrospectedColumn } from '../introspection/introspection';
import type { TableModel } from '../schema/table-model';
import { fromDatabase } from '../values/from-database';
import { toSafeNumber } from '../values/safe-number';
import { dateBucket } from './date-bucket';
import { filterCondition } from './filter-condition';
import { QueryContext, tableName, type SqlEnvironment } from './query-context';
import { applyCondition, type TranslationOptions } from './translate-condition';
import { validateCondition } from './validate-condition';

const OPERATIONS = ['Count', 'Sum', 'Avg', 'Max', 'Min'] as const;

interface Built {
  query: Knex.QueryBuilder;
  read(rows: Record<string, unknown>[]): AggregateResult[];
}

function isNumeric(column: IntrospectedColumn): boolean {
  return (
    column.type.kind === 'scalar' &&
    ['integer', 'bigint', 'decimal', 'float'].includes(column.type.scalar)
  );
}

/**
 * Builds the one query of an aggregation: `SELECT <op> AS value, <groups> … GROUP BY … ORDER BY
 * value DESC LIMIT n`, joining relations used by the field, groups or filter; date groups are
 * bucketed in the caller's time zone.
 */
export function buildAggregateQuery(
  environment: SqlEnvironment,
  model: TableModel,
  filter: Filter | null,
  aggregation: Aggregation,
  limit: number | undefined,
  options: TranslationOptions,
): Built {
  const { knex, dialect } = environment;
  const context = new QueryContext(environment, model);
  const tree = filterCondition(filter, model, environment.models);
  validateCondition(context, tree);
  if (!(OPERATIONS as readonly string[]).includes(aggregation.operation)) {
    throw new ValidationError(
      `Invalid aggregation operation '${String(aggregation.operation)}': use one of ${OPERATIONS.join(', ')}.`,
    );
  }

  const field = aggregation.field ? context.column(aggregation.field) : undefined;
  if (!field && aggregation.operation !== 'Count') {
    throw new ValidationError(`The '${aggregation.operation}' aggregation needs a field.`);
  }
  if (field && ['Sum', 'Avg'].includes(aggregation.operation) && !isNumeric(field.column)) {
    throw new ValidationError(
      `Cannot compute '${aggregation.operation}' on '${aggregation.field}': it is not a number.`,
    );
  }
  const value = field
    ? knex.raw(`${aggregation.operation.toUpperCase()}(??)`, [field.ref])
    : knex.raw('COUNT(*)');

  const query = knex.from(tableName(environment, model.name));
  query.select({ value });
  const groups = aggregation.groups.map((group, index) => {
    const resolved = context.column(group.field);
    const alias = `g${index}`;
    if (group.operation) {
      if (!(DATE_OPERATIONS as readonly string[]).includes(group.operation)) {
        throw new ValidationError(
          `Invalid date operation '${String(group.operation)}': use one of ${DATE_OPERATIONS.join(', ')}.`,
        );
      }
      const scalar = resolved.column.type.kind === 'scalar' ? resolved.column.type.scalar : '';
      if (scalar !== 'timestamp' && scalar !== 'date') {
        throw new ValidationError(
          `Cannot group '${group.field}' by ${group.operation}: it is not a date.`,
        );
      }
      const bucket = dateBucket(
        resolved.ref,
        resolved.column,
        group.operation,
        dialect,
        options.timezone,
      );
      query.select({ [alias]: knex.raw(bucket.sql, bucket.bindings as Knex.RawBinding[]) });
    } else {
      query.select({ [alias]: resolved.ref });
    }
    return { group, alias, column: resolved.column };
  });
  applyCondition(query, context, tree, options);
  // Without groups there is exactly one row: nothing to group, order or limit.
  if (groups.length > 0) {
    query.groupByRaw(groups.map((_, index) => String(index + 2)).join(', '));
    query.orderByRaw(dialect === 'postgres' ? '1 DESC NULLS LAST' : '1 DESC');
    if (limit !== undefined && limit !== null) query.limit(limit);
  }
  context.applyJoins(query);

  const numericResult =
    aggregation.operation === 'Count' ||
    aggregation.operation === 'Sum' ||
    aggregation.operation === 'Avg' ||
    (field !== undefined && isNumeric(field.column));
  return {
    query,
    read: (rows) =>
      rows.map((row) => {
        let result = row.value;
        if (numericResult) {
          if (typeof result === 'string') result = toSafeNumber(result);
          if (typeof result === 'bigint') result = toSafeNumber(result.toString());
          if (result === null && ['Count', 'Sum'].includes(aggregation.operation)) result = 0;
        } else if (field) {
          result = fromDatabase(field.column.type, result, dialect);
        }
        const group: Record<string, unknown> = {};
        for (const { group: definition, alias, column } of groups) {
          group[definition.field] = definition.operation
            ? (row[alias] ?? null)
            : fromDatabase(column.type, row[alias], dialect);
        }
        return { value: result, group };
      }),
  };
}
