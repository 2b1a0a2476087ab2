import { ValidationError } from '../errors/canopy-error';
import { toDateTime } from '../evaluator/time-zone';
import {
  type ColumnType,
  type NestedEnumType,
  describeColumnType,
  isNestedEnum,
} from '../schema/column-type';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATEONLY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const NUMERIC = /^-?\d+(\.\d+)?$/;
const INTEGER = /^-?\d+$/;

/** A column's type facts the value checks use. */
interface ValueColumn {
  columnType: ColumnType;
  enumValues?: string[];
  integerRange?: readonly [string, string];
  maxLength?: number;
}

/**
 * Whether a number (or integer text) is an integer within `range` (inclusive, decimal texts):
 * the values an integer column can store.
 */
export function isIntegerWithin(value: unknown, range: readonly [string, string]): boolean {
  let integer: bigint;
  if (typeof value === 'number' && Number.isInteger(value)) integer = BigInt(value);
  else if (typeof value === 'string' && INTEGER.test(value)) integer = BigInt(value);
  else if (typeof value === 'bigint') integer = value;
  else return false;
  return integer >= BigInt(range[0]) && integer <= BigInt(range[1]);
}

function isOfType(
  value: unknown,
  type: ColumnType | NestedEnumType,
  enumValues?: string[],
): boolean {
  if (value === null || value === undefined) return true;
  if (isNestedEnum(type)) return typeof value === 'string' && type.enumValues.includes(value);
  if (Array.isArray(type)) {
    return Array.isArray(value) && value.every((item) => isOfType(item, type[0], enumValues));
  }
  if (typeof type === 'object') return typeof value === 'object';
  switch (type) {
    case 'Json':
      return true;
    case 'String':
    case 'File':
      return typeof value === 'string';
    case 'Enum':
      return typeof value === 'string' && (!enumValues || enumValues.includes(value));
    case 'Uuid':
      return typeof value === 'string' && UUID.test(value);
    case 'Number':
      return (
        (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && NUMERIC.test(value))
      );
    case 'Boolean':
      return typeof value === 'boolean';
    case 'Date':
      return (
        (value instanceof Date && !Number.isNaN(value.getTime())) ||
        (typeof value === 'string' && toDateTime(value, 'UTC') !== null)
      );
    case 'Dateonly':
      return (
        (typeof value === 'string' && DATEONLY.test(value) && toDateTime(value, 'UTC') !== null) ||
        value instanceof Date
      );
    case 'Time':
      return typeof value === 'string' && TIME.test(value);
    case 'Point':
      return (
        (Array.isArray(value) && value.length === 2 && value.every((n) => typeof n === 'number')) ||
        (typeof value === 'string' && /^-?[\d.]+,-?[\d.]+$/.test(value))
      );
    case 'Binary':
      return Buffer.isBuffer(value) || value instanceof Uint8Array;
  }
}

/**
 * Checks a value against a column type (data-semantics §1.8): `null` is always accepted, `Json`
 * accepts anything, enum values must be listed, arrays are checked item by item.
 *
 * @example
 * validateValue('books.price', { columnType: 'Number' }, 'cheap');
 * // ValidationError: The given value has a wrong type for "books.price": "cheap". Expects Number.
 */
export function validateValue(label: string, column: ValueColumn, value: unknown): void {
  if (isOfType(value, column.columnType, column.enumValues)) {
    const range = column.integerRange;
    if (range && value !== null && value !== undefined && !isIntegerWithin(value, range)) {
      throw new ValidationError(
        `The given value is out of range for "${label}": ${describeValue(value)}. Expects an integer from ${range[0]} to ${range[1]}.`,
      );
    }
    return;
  }
  const isEnum =
    column.columnType === 'Enum' ||
    (Array.isArray(column.columnType) && column.columnType[0] === 'Enum');
  if ((isEnum && typeof value === 'string') || (Array.isArray(value) && isEnum)) {
    throw new ValidationError(
      `The given enum value(s) ${JSON.stringify(value)} is not listed in [${(column.enumValues ?? []).join(', ')}] for "${label}".`,
    );
  }
  throw new ValidationError(
    `The given value has a wrong type for "${label}": ${describeValue(value)}. Expects ${describeColumnType(column.columnType)}.`,
  );
}

/**
 * Checks a value about to be written to a column: {@link validateValue}, then the column's
 * `maxLength` (counted in characters, as SQL's `varchar(n)` counts them), so that a value the
 * storage would refuse or cut is refused with the limit named.
 *
 * @example
 * validateWrittenValue('customers.country', { columnType: 'String', maxLength: 2 }, 'FRA');
 * // ValidationError: "customers.country" takes at most 2 characters; the value given has 3.
 */
export function validateWrittenValue(label: string, column: ValueColumn, value: unknown): void {
  validateValue(label, column, value);
  const max = column.maxLength;
  if (max === undefined || typeof value !== 'string' || value.length <= max) return;
  // UTF-16 units overcount characters outside the BMP: count code points only when it matters.
  const characters = [...value].length;
  if (characters > max) {
    throw new ValidationError(
      `"${label}" takes at most ${max} character${max === 1 ? '' : 's'}; the value given has ${characters}.`,
    );
  }
}

function describeValue(value: unknown): string {
  if (Buffer.isBuffer(value)) return '<bytes>';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
