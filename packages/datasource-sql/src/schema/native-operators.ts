import {
  DATE_OPERATORS,
  ORDERING_OPERATORS,
  PRESENCE_OPERATORS,
  STRING_OPERATORS,
  type Operator,
} from '@canopy/agent-core/toolkit';
import type { SqlDialect } from '../connection/sql-connection-params';
import type { IntrospectedType } from '../introspection/introspection';

const PRESENCE: Operator[] = [...PRESENCE_OPERATORS];
const EQUALITY: Operator[] = [...PRESENCE, 'Equal', 'NotEqual', 'In', 'NotIn'];
const ORDER: Operator[] = [...ORDERING_OPERATORS];
const TEXT: Operator[] = [...STRING_OPERATORS];
const DATES: Operator[] = [...DATE_OPERATORS];

/**
 * Operators translated to SQL for a column type: all that SQL can do natively, so nothing is
 * emulated in memory. Types stored as text on the way in but not text in SQL (interval, timetz,
 * network addresses) get equality and ordering only, since pattern matching would need casts.
 */
export function nativeOperators(type: IntrospectedType, dialect: SqlDialect): Set<Operator> {
  if (type.kind === 'array') {
    return new Set(
      dialect === 'postgres'
        ? [...PRESENCE, 'Equal', 'NotEqual', 'IncludesAll', 'IncludesNone']
        : PRESENCE,
    );
  }
  if (type.kind === 'enum') return new Set(EQUALITY);
  switch (type.scalar) {
    case 'string':
      return new Set([...EQUALITY, ...ORDER, ...TEXT]);
    case 'integer':
    case 'bigint':
    case 'decimal':
    case 'float':
    case 'time':
    case 'interval':
    case 'timetz':
    case 'network':
      return new Set([...EQUALITY, ...ORDER]);
    case 'timestamp':
    case 'date':
      return new Set([...EQUALITY, ...ORDER, ...DATES]);
    case 'json':
    case 'point':
      return new Set(PRESENCE);
    default:
      return new Set(EQUALITY);
  }
}

/**
 * Operators applied to a key path inside a JSON column (`address:country`), on the dialects with
 * JSON path functions (PostgreSQL `jsonb_extract_path`, MySQL/MariaDB `JSON_EXTRACT`/`JSON_VALUE`):
 * presence and equality of the value found there, compared as JSON (a text to a text, a number to
 * a number). `null` elsewhere.
 */
export function jsonKeyOperators(
  type: IntrospectedType,
  dialect: SqlDialect,
): Set<Operator> | null {
  if (type.kind !== 'scalar' || type.scalar !== 'json' || dialect === 'sqlite') return null;
  return new Set(EQUALITY);
}
