import type { PlainConditionTree, PlainConditionTreeLeaf } from '@canopy/agent-core';
import type { Knex } from 'knex';
import { type DateTime } from 'luxon';
import type { IntrospectedColumn, IntrospectedType } from '../introspection/introspection';
import { parseInstant, toIsoDate } from '../values/date-text';
import { instantToDatabase, toDatabase } from '../values/to-database';
import { periodOf } from './date-bounds';
import {
  caseInsensitiveMatch,
  caseSensitiveMatch,
  likeToGlob,
  literalPattern,
  type Anchor,
} from './like-patterns';
import type { QueryContext, ResolvedColumn } from './query-context';

type Builder = Knex.QueryBuilder;

/** Bindings of a raw fragment: values are validated before they get here. */
const b = (values: unknown[]): readonly Knex.RawBinding[] => values as Knex.RawBinding[];

/** Options of one translation: the caller's zone and "now" for relative date operators. */
export interface TranslationOptions {
  timezone: string;
  now: DateTime;
}

const TRUE = '1 = 1';
const FALSE = '1 = 0';

function isTextual(column: IntrospectedColumn): boolean {
  return (
    column.type.kind === 'enum' ||
    (column.type.kind === 'scalar' && column.type.scalar === 'string')
  );
}

/** Converts a filter value for binding, like a written value. */
function bound(context: QueryContext, resolved: ResolvedColumn, value: unknown): unknown {
  const type: IntrospectedType =
    resolved.column.type.kind === 'array' ? resolved.column.type.item : resolved.column.type;
  return toDatabase(type, value, context.environment.dialect);
}

/** MySQL/MariaDB compare strings through case-insensitive collations: compare bytes instead. */
function equalityValue(context: QueryContext, resolved: ResolvedColumn): string {
  const { dialect } = context.environment;
  return (dialect === 'mysql' || dialect === 'mariadb') && isTextual(resolved.column)
    ? 'BINARY ?'
    : '?';
}

function lengthFunction(context: QueryContext): string {
  return context.environment.dialect === 'sqlite' ? 'LENGTH' : 'CHAR_LENGTH';
}

function whereIn(
  query: Builder,
  context: QueryContext,
  resolved: ResolvedColumn,
  values: unknown[],
  negate: boolean,
) {
  const ref = resolved.ref;
  const nonNull = values.filter((value) => value !== null && value !== undefined);
  const hasNull = nonNull.length !== values.length;
  const placeholder = equalityValue(context, resolved);
  const list = nonNull.map(() => placeholder).join(', ');
  const bindings = nonNull.map((value) => bound(context, resolved, value));
  if (!negate) {
    if (nonNull.length === 0) return hasNull ? query.whereNull(ref) : query.whereRaw(FALSE);
    return query.where((inner) => {
      inner.whereRaw(`?? IN (${list})`, b([ref, ...bindings]));
      if (hasNull) inner.orWhereNull(ref);
    });
  }
  if (nonNull.length === 0) return hasNull ? query.whereNotNull(ref) : query.whereRaw(TRUE);
  if (hasNull)
    return query.whereNotNull(ref).whereRaw(`?? NOT IN (${list})`, b([ref, ...bindings]));
  return query.where((inner) => {
    inner.whereRaw(`?? NOT IN (${list})`, b([ref, ...bindings])).orWhereNull(ref);
  });
}

function arraySql(resolved: ResolvedColumn, values: unknown[]): string {
  const cast = resolved.column.sqlType;
  return `ARRAY[${values.map(() => '?').join(', ')}]::${cast}`;
}

function substring(
  query: Builder,
  context: QueryContext,
  resolved: ResolvedColumn,
  value: string,
  anchor: Anchor,
  options: { insensitive: boolean; negate: boolean },
) {
  const { dialect } = context.environment;
  const glob = dialect === 'sqlite' && !options.insensitive;
  const pattern = literalPattern(value, anchor, glob);
  const sql = options.insensitive
    ? caseInsensitiveMatch(dialect, true)
    : caseSensitiveMatch(dialect, true);
  if (!options.negate) return query.whereRaw(sql, b([resolved.ref, pattern]));
  return query.where((inner) => {
    inner.whereRaw(`NOT (${sql})`, b([resolved.ref, pattern])).orWhereNull(resolved.ref);
  });
}

function regexFrom(value: unknown): { source: string; insensitive: boolean } {
  if (value instanceof RegExp)
    return { source: value.source, insensitive: value.flags.includes('i') };
  const text = String(value);
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(text);
  if (literal) return { source: literal[1] ?? '', insensitive: (literal[2] ?? '').includes('i') };
  return { source: text, insensitive: false };
}

function match(query: Builder, context: QueryContext, resolved: ResolvedColumn, value: unknown) {
  const { source, insensitive } = regexFrom(value);
  switch (context.environment.dialect) {
    case 'postgres':
      return query.whereRaw(insensitive ? '?? ~* ?' : '?? ~ ?', b([resolved.ref, source]));
    case 'sqlite':
      return query.whereRaw(
        'canopy_regexp(??, ?, ?) = 1',
        b([resolved.ref, source, insensitive ? 'i' : '']),
      );
    default:
      return query.whereRaw(
        '?? REGEXP ?',
        b([resolved.ref, `${insensitive ? '(?i)' : '(?-i)'}${source}`]),
      );
  }
}

function instant(context: QueryContext, resolved: ResolvedColumn, date: DateTime): unknown {
  const column = resolved.column;
  if (column.type.kind === 'scalar' && column.type.scalar === 'date') return date.toISODate();
  return instantToDatabase(date.toJSDate(), context.environment.dialect);
}

function dateValue(
  context: QueryContext,
  resolved: ResolvedColumn,
  value: unknown,
  options: TranslationOptions,
): unknown {
  const column = resolved.column;
  if (column.type.kind === 'scalar' && column.type.scalar === 'date') return toIsoDate(value);
  const parsed = parseInstant(value, options.timezone);
  return parsed ? instantToDatabase(parsed, context.environment.dialect) : value;
}

function isDateonly(resolved: ResolvedColumn): boolean {
  return resolved.column.type.kind === 'scalar' && resolved.column.type.scalar === 'date';
}

function applyLeaf(
  query: Builder,
  context: QueryContext,
  leaf: PlainConditionTreeLeaf,
  options: TranslationOptions,
): Builder {
  const resolved = context.column(leaf.field);
  const { ref, column } = resolved;
  const value = leaf.value;
  const { dialect } = context.environment;
  const isArray = column.type.kind === 'array';
  switch (leaf.operator) {
    case 'Missing':
      return query.whereNull(ref);
    case 'Present':
      if (isTextual(column)) return query.whereNotNull(ref).whereRaw("?? <> ''", b([ref]));
      return query.whereNotNull(ref);
    case 'Blank':
      if (isTextual(column))
        return query.where((inner) => inner.whereNull(ref).orWhereRaw("?? = ''", b([ref])));
      return query.whereNull(ref);
    case 'Equal':
      if (value === null || value === undefined) return query.whereNull(ref);
      if (isArray)
        return query.whereRaw(
          `?? = ${arraySql(resolved, value as unknown[])}`,
          b([ref, ...(value as unknown[])]),
        );
      return query.whereRaw(
        `?? = ${equalityValue(context, resolved)}`,
        b([ref, bound(context, resolved, value)]),
      );
    case 'NotEqual':
      if (value === null || value === undefined) return query.whereNotNull(ref);
      if (isArray) {
        return query.where((inner) =>
          inner
            .whereRaw(
              `?? <> ${arraySql(resolved, value as unknown[])}`,
              b([ref, ...(value as unknown[])]),
            )
            .orWhereNull(ref),
        );
      }
      return query.where((inner) =>
        inner
          .whereRaw(
            `?? <> ${equalityValue(context, resolved)}`,
            b([ref, bound(context, resolved, value)]),
          )
          .orWhereNull(ref),
      );
    case 'In':
      return whereIn(query, context, resolved, value as unknown[], false);
    case 'NotIn':
      return whereIn(query, context, resolved, value as unknown[], true);
    case 'LessThan':
    case 'GreaterThan':
    case 'LessThanOrEqual':
    case 'GreaterThanOrEqual': {
      const sign = {
        LessThan: '<',
        GreaterThan: '>',
        LessThanOrEqual: '<=',
        GreaterThanOrEqual: '>=',
      }[leaf.operator];
      const converted =
        column.type.kind === 'scalar' && ['timestamp', 'date'].includes(column.type.scalar)
          ? dateValue(context, resolved, value, options)
          : bound(context, resolved, value);
      return query.whereRaw(`?? ${sign} ?`, b([ref, converted]));
    }
    case 'Contains':
      return substring(query, context, resolved, String(value), 'contains', {
        insensitive: false,
        negate: false,
      });
    case 'StartsWith':
      return substring(query, context, resolved, String(value), 'starts', {
        insensitive: false,
        negate: false,
      });
    case 'EndsWith':
      return substring(query, context, resolved, String(value), 'ends', {
        insensitive: false,
        negate: false,
      });
    case 'IContains':
      return substring(query, context, resolved, String(value), 'contains', {
        insensitive: true,
        negate: false,
      });
    case 'IStartsWith':
      return substring(query, context, resolved, String(value), 'starts', {
        insensitive: true,
        negate: false,
      });
    case 'IEndsWith':
      return substring(query, context, resolved, String(value), 'ends', {
        insensitive: true,
        negate: false,
      });
    case 'NotContains':
      return substring(query, context, resolved, String(value), 'contains', {
        insensitive: false,
        negate: true,
      });
    case 'NotIContains':
      return substring(query, context, resolved, String(value), 'contains', {
        insensitive: true,
        negate: true,
      });
    case 'Like': {
      const pattern = dialect === 'sqlite' ? likeToGlob(String(value)) : String(value);
      return query.whereRaw(caseSensitiveMatch(dialect, false), b([ref, pattern]));
    }
    case 'ILike':
      return query.whereRaw(caseInsensitiveMatch(dialect, false), b([ref, String(value)]));
    case 'Match':
      return match(query, context, resolved, value);
    case 'LongerThan':
      return query.whereRaw(`${lengthFunction(context)}(??) > ?`, b([ref, value]));
    case 'ShorterThan':
      return query.whereRaw(`${lengthFunction(context)}(??) < ?`, b([ref, value]));
    case 'IncludesAll': {
      const values = value as unknown[];
      if (values.length === 0) return query.whereRaw(TRUE);
      return query.whereRaw(`?? @> ${arraySql(resolved, values)}`, b([ref, ...values]));
    }
    case 'IncludesNone': {
      const values = value as unknown[];
      if (values.length === 0) return query.whereRaw(TRUE);
      return query.where((inner) =>
        inner
          .whereNull(ref)
          .orWhereRaw(`NOT (?? && ${arraySql(resolved, values)})`, b([ref, ...values])),
      );
    }
    case 'Before':
      return query.whereRaw('?? < ?', b([ref, dateValue(context, resolved, value, options)]));
    case 'After':
      return query.whereRaw('?? > ?', b([ref, dateValue(context, resolved, value, options)]));
    case 'Past':
      return query.whereRaw(
        '?? < ?',
        b([
          ref,
          isDateonly(resolved)
            ? options.now.setZone(options.timezone).toISODate()
            : instant(context, resolved, options.now),
        ]),
      );
    case 'Future':
      return query.whereRaw(
        '?? > ?',
        b([
          ref,
          isDateonly(resolved)
            ? options.now.setZone(options.timezone).toISODate()
            : instant(context, resolved, options.now),
        ]),
      );
    case 'BeforeXHoursAgo':
      return query.whereRaw(
        '?? < ?',
        b([ref, instant(context, resolved, options.now.minus({ hours: Number(value) }))]),
      );
    case 'AfterXHoursAgo':
      return query.whereRaw(
        '?? > ?',
        b([ref, instant(context, resolved, options.now.minus({ hours: Number(value) }))]),
      );
    default: {
      const period = periodOf(leaf.operator, options.timezone, options.now, Number(value));
      if (!period) throw new Error(`Unsupported operator: "${leaf.operator}".`);
      return query
        .whereRaw('?? >= ?', b([ref, instant(context, resolved, period.start)]))
        .whereRaw('?? < ?', b([ref, instant(context, resolved, period.end)]));
    }
  }
}

/**
 * Adds a condition tree to a query's WHERE clause. Values are always bound; identifiers go
 * through knex quoting. An `And` without conditions matches everything, an `Or` without
 * conditions matches nothing.
 */
export function applyCondition(
  query: Builder,
  context: QueryContext,
  tree: PlainConditionTree | null,
  options: TranslationOptions,
): Builder {
  if (!tree) return query;
  if ('field' in tree) return query.where((inner) => void applyLeaf(inner, context, tree, options));
  if (tree.conditions.length === 0) return query.whereRaw(tree.aggregator === 'And' ? TRUE : FALSE);
  return query.where((inner) => {
    for (const condition of tree.conditions) {
      const add = (nested: Builder) => void applyCondition(nested, context, condition, options);
      if (tree.aggregator === 'Or') inner.orWhere(add);
      else inner.where(add);
    }
  });
}
