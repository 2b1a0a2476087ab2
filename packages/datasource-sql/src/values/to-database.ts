import type { SqlDialect } from '../connection/sql-connection-params';
import type { IntrospectedType } from '../introspection/introspection';
import { parseInstant, toIsoDate } from './date-text';

/** `2024-03-15T10:00:00.000Z` → `2024-03-15 10:00:00.000` (MySQL has no offsets in literals). */
function mysqlTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/** Formats an instant the way the dialect stores and compares it (always UTC). */
export function instantToDatabase(date: Date, dialect: SqlDialect): string {
  return dialect === 'mysql' || dialect === 'mariadb' ? mysqlTimestamp(date) : date.toISOString();
}

/**
 * Converts a validated wire value to what the driver binds for a column: instants in UTC in the
 * dialect's comparable form, json as text, booleans as 0/1 on SQLite.
 */
export function toDatabase(type: IntrospectedType, value: unknown, dialect: SqlDialect): unknown {
  if (value === null || value === undefined) return null;
  if (type.kind !== 'scalar') return value;
  switch (type.scalar) {
    case 'timestamp': {
      const instant = parseInstant(value);
      return instant ? instantToDatabase(instant, dialect) : value;
    }
    case 'date':
      return toIsoDate(value);
    case 'json':
      return JSON.stringify(value);
    case 'boolean':
      return dialect === 'sqlite' ? (value ? 1 : 0) : value;
    default:
      return value;
  }
}
