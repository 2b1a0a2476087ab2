import {
  MissingFieldError,
  UnexpectedFieldTypeError,
  ValidationError,
  type RecordData,
} from '@canopy/agent-core';
import type { SqlDialect } from '../connection/sql-connection-params';
import { assertStorable, assertValueType } from '../query/validate-value';
import type { TableModel } from '../schema/table-model';
import { toDatabase } from '../values/to-database';

/**
 * Validates a record to write (known, writable columns with values of their type) and converts
 * it to the values the driver binds.
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
    assertValueType(`${model.name}.${name}`, field, value);
    assertStorable(`${model.name}.${name}`, value, dialect);
    values[name] = toDatabase(column.type, value, dialect);
  }
  return values;
}
