import type { Knex } from 'knex';
import type { DateTime } from 'luxon';
import type { SqlDialect } from '../../connection/sql-connection-params';
import type { IntrospectedColumn, IntrospectedType } from '../../introspection/introspection';
import { parseInstant, toIsoDate } from '../../values/date-text';
import { instantToDatabase, toDatabase } from '../../values/to-database';

/** Options of one translation: the caller's zone and "now" for relative date operators. */
export interface TranslationOptions {
  timezone: string;
  now: DateTime;
}

/** Everything an operator needs to add one condition to a query. */
export interface Leaf {
  query: Knex.QueryBuilder;
  /** Qualified column reference (`alias.column`), bound as an identifier (`??`). */
  ref: string;
  column: IntrospectedColumn;
  dialect: SqlDialect;
  value: unknown;
  options: TranslationOptions;
}

/** Translates one operator. */
export type OperatorTranslator = (leaf: Leaf) => Knex.QueryBuilder;

/** Bindings of a raw fragment: values are validated before they get here. */
export const bindings = (values: unknown[]): readonly Knex.RawBinding[] =>
  values as Knex.RawBinding[];

export const MATCH_ALL = '1 = 1';
export const MATCH_NONE = '1 = 0';

function itemType(column: IntrospectedColumn): IntrospectedType {
  return column.type.kind === 'array' ? column.type.item : column.type;
}

/** Whether the column holds text that may be empty (`''`), which Present/Blank look at. */
export function isText(column: IntrospectedColumn): boolean {
  return column.type.kind === 'scalar' && column.type.scalar === 'string';
}

/** Whether the column is a date (`Dateonly`) rather than an instant. */
export function isDateOnly(column: IntrospectedColumn): boolean {
  return column.type.kind === 'scalar' && column.type.scalar === 'date';
}

/**
 * Converts a filter value for binding, like a written value; instants given without an offset
 * are read in the caller's time zone.
 */
export function bound(leaf: Leaf, value: unknown): unknown {
  const type = itemType(leaf.column);
  if (value === null || value === undefined) return null;
  if (type.kind === 'scalar' && type.scalar === 'timestamp') {
    const instant = parseInstant(value, leaf.options.timezone);
    return instant ? instantToDatabase(instant, leaf.dialect) : value;
  }
  if (type.kind === 'scalar' && type.scalar === 'date') return toIsoDate(value);
  return toDatabase(type, value, leaf.dialect);
}

/** MySQL/MariaDB compare text through case-insensitive collations: such leaves compare bytes. */
export function comparesBytes(leaf: Leaf): boolean {
  const textual = isText(leaf.column) || leaf.column.type.kind === 'enum';
  return (leaf.dialect === 'mysql' || leaf.dialect === 'mariadb') && textual;
}

/** `?`, or `BINARY ?` where the leaf {@link comparesBytes}. */
export function equalityPlaceholder(leaf: Leaf): string {
  return comparesBytes(leaf) ? 'BINARY ?' : '?';
}

/**
 * SQL and bindings matching the column against one or several values, case-sensitively on every
 * dialect. On MySQL/MariaDB the collation's comparison stays first so the index still narrows
 * the rows, then the byte comparison keeps the exact ones.
 */
export function matchAny(leaf: Leaf, values: unknown[]): [string, readonly Knex.RawBinding[]] {
  const converted = values.map((value) => bound(leaf, value));
  const list = (placeholder: string) => values.map(() => placeholder).join(', ');
  const single = values.length === 1;
  const plain = single ? '?? = ?' : `?? IN (${list('?')})`;
  if (!comparesBytes(leaf)) return [plain, bindings([leaf.ref, ...converted])];
  const exact = single ? '?? = BINARY ?' : `?? IN (${list('BINARY ?')})`;
  return [`(${plain} AND ${exact})`, bindings([leaf.ref, ...converted, leaf.ref, ...converted])];
}
