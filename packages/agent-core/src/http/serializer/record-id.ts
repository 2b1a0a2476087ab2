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
  const text = String(packed);
  // A single key without a separator (the common case): no split, no intermediate array.
  if (plan.primaryKeys.length === 1 && !text.includes('|')) {
    return [readPart(collection, plan.primaryKeys[0] as string, text)];
  }
  const parts = text.split('|');
  if (parts.length !== plan.primaryKeys.length) {
    throw new ValidationError(
      `Expected ${plan.primaryKeys.length} values, found ${parts.length} (id '${text}' of '${collection.name}', primary key [${plan.primaryKeys.join(', ')}])`,
    );
  }
  return parts.map((part, index) => readPart(collection, plan.primaryKeys[index] as string, part));
}

/** One part of a packed id as its column's value (`Number` keys converted), validated. */
function readPart(collection: Collection, key: string, part: string): unknown {
  const column = collection.schema.fields[key] as ColumnSchema;
  const value = column.columnType === 'Number' ? Number(part) : part;
  if (column.columnType === 'Number' && !Number.isFinite(value)) {
    throw new ValidationError(
      `The given value has a wrong type for "${key}": ${part}.\n Expects "Number"`,
    );
  }
  validateValue(key, column, value);
  return value;
}
