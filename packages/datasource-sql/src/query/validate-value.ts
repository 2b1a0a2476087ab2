import { ValidationError, describeColumnType, type ColumnSchema } from '@canopy/agent-core';
import { parseInstant } from '../values/date-text';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATEONLY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}(:?\d{2})?)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const POINT = /^\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*$/;

function show(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (Buffer.isBuffer(value)) return `<Buffer of ${value.length} bytes>`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function matchesPrimitive(type: string, value: unknown, enumValues: string[] | undefined): boolean {
  switch (type) {
    case 'Number':
      return (
        (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && DECIMAL.test(value)) ||
        typeof value === 'bigint'
      );
    case 'String':
      return typeof value === 'string';
    case 'Boolean':
      return typeof value === 'boolean';
    case 'Uuid':
      return typeof value === 'string' && UUID.test(value);
    case 'Enum':
      return typeof value === 'string' && (enumValues ?? []).includes(value);
    case 'Date':
      return parseInstant(value) !== undefined;
    case 'Dateonly':
      return (
        (typeof value === 'string' && DATEONLY.test(value) && parseInstant(value) !== undefined) ||
        value instanceof Date
      );
    case 'Time':
      return typeof value === 'string' && TIME.test(value);
    case 'Binary':
      return value instanceof Uint8Array;
    case 'Point':
      return typeof value === 'string' && POINT.test(value);
    default:
      return true;
  }
}

/**
 * Checks a value against a column before any SQL runs; throws a validation error that names the
 * field, the value and the expected type. `null` is accepted (nullability is the database's).
 */
export function assertValueType(path: string, column: ColumnSchema, value: unknown): void {
  if (value === null || value === undefined) return;
  const type = column.columnType;
  if (Array.isArray(type)) {
    if (!Array.isArray(value)) {
      throw new ValidationError(
        `The given value has a wrong type for "${path}": ${show(value)}. Expects an array of ${describeColumnType(type[0])}.`,
      );
    }
    const itemColumn: ColumnSchema = { ...column, columnType: type[0] };
    for (const item of value) assertValueType(path, itemColumn, item);
    return;
  }
  if (typeof type !== 'string') return;
  if (!matchesPrimitive(type, value, column.enumValues)) {
    if (type === 'Enum' && typeof value === 'string') {
      throw new ValidationError(
        `The given enum value(s) ${show(value)} is not listed in [${(column.enumValues ?? []).map((label) => `'${label}'`).join(', ')}] for "${path}".`,
      );
    }
    throw new ValidationError(
      `The given value has a wrong type for "${path}": ${show(value)}. Expects ${type}.`,
    );
  }
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item));
  }
  return false;
}

/**
 * PostgreSQL cannot store NUL characters in text or json: refuse them up front with a clear
 * message instead of a driver error.
 */
export function assertStorable(path: string, value: unknown, dialect: string): void {
  if (dialect === 'postgres' && containsNul(value)) {
    throw new ValidationError(
      `The value of "${path}" contains a NUL character (\\u0000), which PostgreSQL cannot store in text. Remove it.`,
    );
  }
}
