import type { Operator } from '@canopy/agent-core';
import type { SqlDialect } from '../connection/sql-connection-params';
import type { IntrospectedType } from '../introspection/introspection';

const PRESENCE: Operator[] = ['Present', 'Missing', 'Blank'];
const EQUALITY: Operator[] = [...PRESENCE, 'Equal', 'NotEqual', 'In', 'NotIn'];
const ORDER: Operator[] = ['LessThan', 'GreaterThan', 'LessThanOrEqual', 'GreaterThanOrEqual'];
const TEXT: Operator[] = [
  'Contains',
  'NotContains',
  'StartsWith',
  'EndsWith',
  'IContains',
  'NotIContains',
  'IStartsWith',
  'IEndsWith',
  'Like',
  'ILike',
  'Match',
  'LongerThan',
  'ShorterThan',
];
const DATES: Operator[] = [
  'Before',
  'After',
  'Past',
  'Future',
  'BeforeXHoursAgo',
  'AfterXHoursAgo',
  'Today',
  'Yesterday',
  'PreviousWeek',
  'PreviousMonth',
  'PreviousQuarter',
  'PreviousYear',
  'PreviousWeekToDate',
  'PreviousMonthToDate',
  'PreviousQuarterToDate',
  'PreviousYearToDate',
  'PreviousXDays',
  'PreviousXDaysToDate',
];

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
