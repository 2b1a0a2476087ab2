import { ValidationError } from '@canopy/agent-core/toolkit';

interface DriverError {
  code?: unknown;
  errno?: unknown;
  constraint?: unknown;
  column?: unknown;
  table?: unknown;
  message?: unknown;
  sqlMessage?: unknown;
}

type Violation = 'unique' | 'foreignKey' | 'notNull' | 'check' | undefined;

function classify(error: DriverError): Violation {
  const code = String(error.code ?? '');
  if (
    code === '23505' ||
    code === 'ER_DUP_ENTRY' ||
    /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(code)
  )
    return 'unique';
  if (
    code === '23503' ||
    /^ER_(NO_REFERENCED_ROW|ROW_IS_REFERENCED)/.test(code) ||
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  )
    return 'foreignKey';
  if (
    code === '23502' ||
    code === 'ER_BAD_NULL_ERROR' ||
    code === 'ER_NO_DEFAULT_FOR_FIELD' ||
    code === 'SQLITE_CONSTRAINT_NOTNULL'
  )
    return 'notNull';
  if (
    code === '23514' ||
    code === 'ER_CONSTRAINT_FAILED' ||
    code === 'ER_CHECK_CONSTRAINT_VIOLATED' ||
    code === 'SQLITE_CONSTRAINT_CHECK'
  )
    return 'check';
  return undefined;
}

/** What the driver says the violated constraint or column is, without the offending values. */
function subject(error: DriverError): string {
  if (typeof error.constraint === 'string' && error.constraint)
    return `constraint "${error.constraint}"`;
  if (typeof error.column === 'string' && error.column) return `field "${error.column}"`;
  const message = String(error.sqlMessage ?? error.message ?? '');
  const mysqlKey = /for key '([^']+)'/.exec(message) ?? /CONSTRAINT [`']([^`']+)[`']/.exec(message);
  if (mysqlKey) return `constraint "${mysqlKey[1]}"`;
  const mysqlColumn = /Column '([^']+)'/.exec(message) ?? /Field '([^']+)'/.exec(message);
  if (mysqlColumn) return `field "${mysqlColumn[1]}"`;
  const sqlite = /constraint failed: (.+)$/.exec(message);
  if (sqlite) return `field(s) ${sqlite[1]}`;
  return 'a constraint';
}

/**
 * Turns a database error raised by a write into a validation error that names the violated
 * constraint or field (never a driver stack); the driver error stays as `cause`.
 */
export function toWriteError(error: unknown, operation: 'create' | 'update' | 'delete'): Error {
  if (typeof error !== 'object' || error === null) return new ValidationError(String(error));
  const driverError = error as DriverError;
  const about = subject(driverError);
  switch (classify(driverError)) {
    case 'unique':
      return new ValidationError(
        `The query violates a unicity constraint in the database (${about}). Please ensure that you are not duplicating information across records.`,
        { cause: error, code: 'UNIQUE_CONSTRAINT_VIOLATION' },
      );
    case 'foreignKey':
      return new ValidationError(
        `The query violates a foreign key constraint in the database (${about}). ` +
          (operation === 'delete'
            ? 'Please ensure that no records are linked to the one that you wish to delete.'
            : 'Please ensure that you are not linking to a relation which was deleted.'),
        { cause: error, code: 'FOREIGN_KEY_CONSTRAINT_VIOLATION' },
      );
    case 'notNull':
      return new ValidationError(
        `The query violates a not-null constraint in the database (${about}): a value is required.`,
        {
          cause: error,
          code: 'NOT_NULL_CONSTRAINT_VIOLATION',
        },
      );
    case 'check':
      return new ValidationError(
        `The query violates a check constraint in the database (${about}).`,
        {
          cause: error,
          code: 'CHECK_CONSTRAINT_VIOLATION',
        },
      );
    default: {
      const message = String(driverError.sqlMessage ?? driverError.message ?? error).split('\n')[0];
      return new ValidationError(`The database rejected the ${operation}: ${message}`, {
        cause: error,
      });
    }
  }
}
