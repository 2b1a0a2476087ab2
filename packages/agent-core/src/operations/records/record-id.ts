import { CanopyError, NotFoundError, ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { CompositeId, RecordData } from '../../toolkit/record/record-utils';
import type { ColumnSchema } from '../../toolkit/schema/field-schema';
import { validateValue } from '../../toolkit/validation/value-validator';
import { type CollectionPlan, getCollectionPlan } from './collection-plan';

/**
 * Unpacks a packed id (§7.2): split on `|`, one part per primary key, `Number` keys converted,
 * each part validated against its column type. Bad ids are validation errors.
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

/** An integer as the agent writes one: no sign on zero, no leading zeros, no spaces. */
const INTEGER_TEXT = /^(0|-?[1-9]\d*)$/;
/** A decimal as the agent writes one: the integer form with an optional fraction. */
const DECIMAL_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/**
 * One part of a packed id as its column's value, validated. A `Number` key is parsed strictly
 * (no spaces, exponents, hex or leading zeros: a lenient parse could read or delete a record the
 * caller did not name); outside the column's `integerRange` no record can have it, which is a not-found
 * decided before any query. Integers beyond 2^53 stay texts, so no digit is lost.
 */
function readPart(collection: Collection, key: string, part: string): unknown {
  const column = collection.schema.fields[key] as ColumnSchema;
  if (column.columnType !== 'Number') {
    validateValue(key, column, part);
    return part;
  }
  const range = column.integerRange;
  if (!(range ? INTEGER_TEXT : DECIMAL_TEXT).test(part)) {
    throw new ValidationError(
      `The given value has a wrong type for "${key}": ${part}. Expects ${range ? 'an integer' : 'a number'} in plain decimal digits (no spaces, exponent, hex or leading zeros).`,
    );
  }
  if (range && !isWithin(part, range)) {
    throw new NotFoundError(
      `Record does not exists: '${collection.name}' ids ("${key}") range from ${range[0]} to ${range[1]}, not ${part}`,
    );
  }
  const value = Number(part);
  return Number.isSafeInteger(value) || !range ? value : part;
}

/** Whether an integer text lies within an inclusive range of integer texts. */
export function isWithin(integer: string, [min, max]: readonly [string, string]): boolean {
  const value = BigInt(integer);
  return value >= BigInt(min) && value <= BigInt(max);
}

/** The packed id of a record (§7.2); a collection without primary key cannot be serialized. */
export function packRecordId(plan: CollectionPlan, record: RecordData): string {
  if (plan.primaryKeys.length === 0) {
    throw new NoPrimaryKeyError(plan.collection.name);
  }
  let id = '';
  for (let index = 0; index < plan.primaryKeys.length; index += 1) {
    const value = record[plan.primaryKeys[index] as string];
    id += index === 0 ? String(value) : `|${String(value)}`;
  }
  return id;
}

/** A collection without a primary key reached the serializer (§7.2): unprocessable. */
export class NoPrimaryKeyError extends CanopyError {
  constructor(collection: string) {
    super(
      'unprocessable',
      'NO_PRIMARY_KEY',
      `This collection has no primary key ('${collection}' cannot be served record by record)`,
      { data: {} },
    );
  }
}
