import type { SqlDialect } from '../connection/sql-connection-params';
import type { IntrospectedType } from '../introspection/introspection';
import { toSafeNumber } from './safe-number';
import { toIsoDate, toIsoTimestamp } from './date-text';
import { parseTextArray } from './pg-builtin-parsers';

function fromScalar(
  type: IntrospectedType & { kind: 'scalar' },
  value: unknown,
  dialect: SqlDialect,
) {
  switch (type.scalar) {
    case 'boolean':
      if (Buffer.isBuffer(value)) return value[0] === 1;
      if (typeof value === 'number' || typeof value === 'bigint')
        return value !== 0 && value !== 0n;
      if (typeof value === 'string') return value === '1' || value === 't' || value === 'true';
      return value;
    case 'integer':
    case 'bigint':
    case 'decimal':
    case 'float':
      if (typeof value === 'string') return toSafeNumber(value);
      if (typeof value === 'bigint') return toSafeNumber(value.toString());
      return value;
    case 'timestamp':
      return toIsoTimestamp(value);
    case 'date':
      return toIsoDate(value);
    case 'json':
      if (dialect !== 'postgres' && typeof value === 'string') {
        try {
          return JSON.parse(value);
        } catch {
          return value;
        }
      }
      return value;
    case 'binary':
      return value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value) : value;
    case 'point':
      return typeof value === 'string' ? value.replace(/^\((.*)\)$/, '$1') : value;
    default:
      return value;
  }
}

/**
 * Converts a value read from the database to the data model's wire form: Date → UTC ISO string
 * with milliseconds, Dateonly → `YYYY-MM-DD`, numbers exact (string when a double would lose
 * digits), Json → value, Binary → Buffer, Boolean → boolean.
 */
export function fromDatabase(type: IntrospectedType, value: unknown, dialect: SqlDialect): unknown {
  if (value === null || value === undefined) return null;
  if (type.kind === 'enum') return value;
  if (type.kind === 'array') {
    const items =
      typeof value === 'string' && value.startsWith('{') ? parseTextArray(value) : value;
    return Array.isArray(items)
      ? items.map((item) => fromDatabase(type.item, item, dialect))
      : items;
  }
  return fromScalar(type, value, dialect);
}
