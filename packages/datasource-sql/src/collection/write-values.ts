import {
  MissingFieldError,
  UnexpectedFieldTypeError,
  ValidationError,
  validateWrittenValue,
  type RecordData,
} from '@canopy/agent-core/toolkit';
import type { SqlDialect } from '../connection/sql-connection-params';
import { assertStorable } from '../query/assert-storable';
import type { TableModel } from '../schema/table-model';
import { toDatabase } from '../values/to-database';

/**
 * Validates a record to write (known, writable columns; values checked by agent-core's
 * `validateWrittenValue`, the agent's own value rules and the column's length; no NUL characters on PostgreSQL) and converts it
 * to the values the driver binds.
 */
export function toWriteValues(
  model: TableModel,
  record: RecordData,
  dialect: SqlDialect,
): Record<string, unknown> {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new ValidationError(`A record of '${model.name}' must be an object of field values.`);
  }
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    const field = model.fields[name];
    const column = model.columns.get(name);
    if (!field) throw new MissingFieldError(model.name, name, Object.keys(model.fields));
    if (field.type !== 'Column' || !column) {
      throw new UnexpectedFieldTypeError(model.name, name, field.type, ['Column']);
    }
    if (value === undefined) continue;
    if (field.isReadOnly) {
      throw new ValidationError(`The field '${model.name}.${name}' is read-only.`);
    }
    validateWrittenValue(`${model.name}.${name}`, field, value);
    assertStorable(`${model.name}.${name}`, value, dialect);
    values[name] = toDatabase(column.type, value, dialect);
  }
  return values;
}
