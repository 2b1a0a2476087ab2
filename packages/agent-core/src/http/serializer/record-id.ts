import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { CompositeId } from '../../toolkit/record/record-utils';
import type { ColumnSchema } from '../../toolkit/schema/field-schema';
import { validateValue } from '../../toolkit/validation/value-validator';
import { getCollectionPlan } from './collection-plan';
import { NoPrimaryKeyError } from './json-api';

/**
 * Unpacks a packed id (§7.2): split on `|`, one part per primary key, `Number` keys converted,
 * each part validated against its column type. Bad ids are 400 errors.
 */
export function unpackRecordId(collection: Collection, packed: unknown): CompositeId {
  const plan = getCollectionPlan(collection);
  if (plan.primaryKeys.length === 0) throw new NoPrimaryKeyError(collection.name);
  if (typeof packed !== 'string' && typeof packed !== 'number') {
    throw new ValidationError(
      `Expected a packed record id (a string such as "12" or "12|EU") for '${collection.name}', got ${JSON.stringify(packed) ?? 'nothing'}`,
    );
  }
  const parts = String(packed).split('|');
  if (parts.length !== plan.primaryKeys.length) {
    throw new ValidationError(
      `Expected ${plan.primaryKeys.length} values, found ${parts.length} (id '${String(packed)}' of '${collection.name}', primary key [${plan.primaryKeys.join(', ')}])`,
    );
  }
  return parts.map((part, index) => {
    const key = plan.primaryKeys[index] as string;
    const column = collection.schema.fields[key] as ColumnSchema;
    const value = column.columnType === 'Number' ? Number(part) : part;
    if (column.columnType === 'Number' && !Number.isFinite(value)) {
      throw new ValidationError(
        `The given value has a wrong type for "${key}": ${part}.\n Expects "Number"`,
      );
    }
    validateValue(key, column, value);
    return value;
  });
}
