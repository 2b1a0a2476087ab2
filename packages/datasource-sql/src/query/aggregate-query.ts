import {
  DATE_OPERATIONS,
  ValidationError,
  type AggregateResult,
  type Aggregation,
  type ConditionTree,
} from '@canopy/agent-core/toolkit';
import type { Knex } from 'knex';
import type { IntrospectedColumn } from '../introspection/introspection';
import type { TableModel } from '../schema/table-model';
import type { ConditionRecorder } from './condition-recorder';
import { fromDatabase } from '../values/from-database';
import { toSafeNumber } from '../values/safe-number';
import { dateBucket } from './date-bucket';
import { QueryContext, tableName, type SqlEnvironment } from './query-context';
import { shapeKey } from './statement-cache';
import { runCachedSelect } from './statement-runner';
import { recordCondition, type TranslationOptions } from './translate-condition';

const OPERATIONS = ['Count', 'Sum', 'Avg', 'Max', 'Min'] as const;

type ResultReader = (rows: Record<string, unknown>[]) => AggregateResult[];

interface Built {
  query: Knex.QueryBuilder;
  reader: ResultReader;
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
function buildAggregateQuery(
  context: QueryContext,
  condition: ConditionRecorder,
  aggregation: Aggregation,
  limit: number | undefined,
  options: TranslationOptions,
): Built {
  const { environment, root: model } = context;
  const { knex, dialect } = environment;
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
  condition.replay(query);
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
    reader: (rows) =>
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

/**
 * The shape of an aggregation beyond its condition: operation, field, groups, the time zone
 * when a group buckets dates, whether a limit applies. `undefined` when a part is not a string
 * (the builder then reports it).
 */
function aggregateShape(
  model: TableModel,
  aggregation: Aggregation,
  limit: number | undefined,
  options: TranslationOptions,
): string[] | undefined {
  const { operation, field, groups } = aggregation;
  if (typeof operation !== 'string' || (field != null && typeof field !== 'string')) {
    return undefined;
  }
  if (!Array.isArray(groups)) return undefined;
  const limited = groups.length > 0 && limit !== undefined && limit !== null;
  const parts = ['aggregate', model.name, operation, field == null ? 'count rows' : 'field'];
  parts.push(field ?? '', limited ? 'limit' : '');
  parts.push(String(groups.length));
  let dates = false;
  for (const group of groups) {
    if (typeof group.field !== 'string') return undefined;
    if (group.operation != null && typeof group.operation !== 'string') return undefined;
    parts.push(group.field, group.operation ?? '');
    dates ||= Boolean(group.operation);
  }
  parts.push(dates ? options.timezone : '', 'where');
  return parts;
}

/**
 * Runs an aggregation in one query; `tree` is the filter's validated condition (search
 * included), walked once as for lists. Like lists, the SQL of each shape is compiled once and
 * cached with its result reader; later aggregations of the same shape only bind their values.
 */
export async function aggregateRecords(
  environment: SqlEnvironment,
  model: TableModel,
  tree: ConditionTree | null,
  aggregation: Aggregation,
  limit: number | undefined,
  options: TranslationOptions,
): Promise<AggregateResult[]> {
  const context = new QueryContext(environment, model);
  const condition = recordCondition(context, tree, options);
  const shape = environment.statements
    ? aggregateShape(model, aggregation, limit, options)
    : undefined;
  const key = shape && condition.cacheable ? shapeKey(shape, condition.shape) : undefined;
  const values = condition.values;
  if (key !== undefined && aggregation.groups.length > 0 && limit !== undefined && limit !== null) {
    values.push(limit);
  }
  const { rows, reader } = await runCachedSelect<ResultReader>(environment, key, values, () =>
    buildAggregateQuery(context, condition, aggregation, limit, options),
  );
  return reader(rows);
}
