import type { PlainConditionTree } from '../query/condition-tree/condition-tree';
import type { Operator } from '../query/operators';
import type { ColumnSchema } from '../schema/field-schema';
import { isIntegerWithin } from '../validation/value-validator';
import { DateTime } from 'luxon';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const leaf = (field: string, operator: Operator, value?: unknown): PlainConditionTree =>
  value === undefined ? { field, operator } : { field, operator, value };
const or = (...conditions: PlainConditionTree[]): PlainConditionTree => ({
  aggregator: 'Or',
  conditions,
});
const and = (...conditions: PlainConditionTree[]): PlainConditionTree => ({
  aggregator: 'And',
  conditions,
});

function first(column: ColumnSchema, operators: Operator[]): Operator | undefined {
  return operators.find((operator) => column.filterOperators?.has(operator));
}

function withMissing(
  field: string,
  column: ColumnSchema,
  tree: PlainConditionTree,
): PlainConditionTree {
  return column.filterOperators?.has('Missing') ? or(tree, leaf(field, 'Missing')) : tree;
}

function numberCondition(field: string, column: ColumnSchema, text: string, negated: boolean) {
  const match = /^(=|!=|<>|>=|≥|<=|≤|>|<)?\s*(-?\d+(\.\d+)?)$/.exec(text);
  if (!match) return null;
  const value = Number(match[2]);
  // A number the column cannot store (beyond its integer type, or a fraction in an integer
  // column) matches nothing in it: the field is left out of the search, where the condition
  // would otherwise make the whole search a validation error.
  if (column.integerRange && !isIntegerWithin(match[2], column.integerRange)) return null;
  const comparisons: Record<string, PlainConditionTree> = {
    '=': leaf(field, 'Equal', value),
    '!=': leaf(field, 'NotEqual', value),
    '>': leaf(field, 'GreaterThan', value),
    '>=': or(leaf(field, 'GreaterThan', value), leaf(field, 'Equal', value)),
    '<': leaf(field, 'LessThan', value),
    '<=': or(leaf(field, 'LessThan', value), leaf(field, 'Equal', value)),
  };
  const complements: Record<string, string> = {
    '=': '!=',
    '!=': '=',
    '>': '<=',
    '>=': '<',
    '<': '>=',
    '<=': '>',
  };
  const aliases: Record<string, string> = { '<>': '!=', '≥': '>=', '≤': '<=' };
  const sign = aliases[match[1] ?? '='] ?? match[1] ?? '=';
  return negated
    ? withMissing(field, column, comparisons[complements[sign] as string] as PlainConditionTree)
    : comparisons[sign];
}

function dateCondition(
  field: string,
  column: ColumnSchema,
  text: string,
  negated: boolean,
  timezone: string,
) {
  const match = /^(>=|≥|<=|≤|>|<)?(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(text);
  if (!match) return null;
  const year = Number(match[2]);
  if (year < 1800 || year > DateTime.now().year + 100) return null;
  const unit = match[4] ? 'day' : match[3] ? 'month' : 'year';
  const start = DateTime.fromObject(
    { year, month: Number(match[3] ?? 1), day: Number(match[4] ?? 1) },
    { zone: column.columnType === 'Date' ? timezone : 'UTC' },
  );
  if (!start.isValid) return null;
  const end = start.plus({ [`${unit}s`]: 1 });
  const format = (value: DateTime) =>
    column.columnType === 'Date'
      ? (value.toUTC().toISO() as string)
      : (value.toISODate() as string);
  const from = or(leaf(field, 'Equal', format(start)), leaf(field, 'After', format(start)));
  const before = leaf(field, 'Before', format(end));
  const byPrefix: Record<string, PlainConditionTree> = {
    '>': or(leaf(field, 'Equal', format(end)), leaf(field, 'After', format(end))),
    '>=': from,
    '<': leaf(field, 'Before', format(start)),
    '<=': before,
  };
  const aliases: Record<string, string> = { '≥': '>=', '≤': '<=' };
  const prefix = match[1] ? (aliases[match[1]] ?? match[1]) : null;
  if (prefix) return byPrefix[prefix] ?? null;
  return negated
    ? withMissing(
        field,
        column,
        or(
          leaf(field, 'Before', format(start)),
          leaf(field, 'After', format(end)),
          leaf(field, 'Equal', format(end)),
        ),
      )
    : and(from, before);
}

/**
 * The condition a search token gives on one field (data-semantics §3.9), or `null` when the
 * field cannot match that token. Only operators the field supports are used.
 */
export function searchCondition(
  field: string,
  column: ColumnSchema,
  text: string,
  negated: boolean,
  quoted: boolean,
  timezone: string,
): PlainConditionTree | null {
  const type = column.columnType;
  if (type === 'String') {
    if (quoted && text === '') return leaf(field, negated ? 'NotEqual' : 'Equal', '');
    const operator = negated
      ? first(column, ['NotIContains', 'NotContains', 'NotEqual'])
      : first(column, ['IContains', 'Contains', 'Equal']);
    if (!operator) return null;
    return negated
      ? withMissing(field, column, leaf(field, operator, text))
      : leaf(field, operator, text);
  }
  if (type === 'Number') return numberCondition(field, column, text, negated) ?? null;
  if (type === 'Date' || type === 'Dateonly')
    return dateCondition(field, column, text, negated, timezone);
  let value: unknown;
  if (type === 'Enum')
    value = column.enumValues?.find((v) => v.toLowerCase() === text.trim().toLowerCase());
  else if (type === 'Boolean')
    value = ['true', '1'].includes(text.toLowerCase())
      ? true
      : ['false', '0'].includes(text.toLowerCase())
        ? false
        : undefined;
  else if (type === 'Uuid') value = UUID.test(text) ? text : undefined;
  else if (
    Array.isArray(type) &&
    (type[0] === 'String' || type[0] === 'Number' || type[0] === 'Enum')
  ) {
    const item =
      type[0] === 'Number'
        ? Number(text)
        : type[0] === 'Enum'
          ? column.enumValues?.find((v) => v.toLowerCase() === text.toLowerCase())
          : text;
    if (item === undefined || (typeof item === 'number' && Number.isNaN(item))) return null;
    return negated
      ? withMissing(field, column, leaf(field, 'IncludesNone', [item]))
      : leaf(field, 'IncludesAll', [item]);
  }
  if (value === undefined) return null;
  return negated
    ? withMissing(field, column, leaf(field, 'NotEqual', value))
    : leaf(field, 'Equal', value);
}
