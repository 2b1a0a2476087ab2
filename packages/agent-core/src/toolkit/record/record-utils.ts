import { ValidationError } from '../errors/canopy-error';
import type { CollectionSchema } from '../schema/collection-schema';
import { getPrimaryKeys } from '../schema/schema-utils';

/** A record: a plain object; relation paths are nested objects (`{ author: { name } }`). */
export type RecordData = Record<string, unknown>;

/** A primary key value per primary-key column, in field order: `[42]` or `['FR', 7]`. */
export type CompositeId = Array<string | number | boolean | null | unknown>;

/**
 * The composite id of a record.
 *
 * @example
 * getPrimaryKey(schema, { id: 42, title: 'Dune' }); // [42]
 */
export function getPrimaryKey(schema: CollectionSchema, record: RecordData): CompositeId {
  return getPrimaryKeys(schema).map((pk) => {
    const value = record[pk];
    if (value === undefined) throw new ValidationError(`Missing primary key: ${pk}`);
    return value;
  });
}

/**
 * The value at a field path (`author:country:name`), or `undefined` when a relation on the way
 * is null or absent.
 */
export function getFieldValue(record: RecordData | null | undefined, path: string): unknown {
  let current: unknown = record;
  for (const part of path.split(':')) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = (current as RecordData)[part];
  }
  return current;
}

/** Converts flat paths (`{ 'author:name': 'Ada' }`) to nested records (`{ author: { name } }`). */
export function unflattenRecord(flat: Record<string, unknown>): RecordData {
  const paths = Object.keys(flat);
  return unflattener(paths)(paths.map((path) => flat[path]));
}

/**
 * A function building nested records from values given in the order of `paths`, with the paths
 * split once (for use on many records).
 */
export function unflattener(paths: readonly string[]): (values: readonly unknown[]) => RecordData {
  const split = paths.map((path) => {
    const parts = path.split(':');
    return { parents: parts.slice(0, -1), last: parts[parts.length - 1] as string };
  });
  return (values) => {
    const record: RecordData = {};
    split.forEach(({ parents, last }, index) => {
      let target = record;
      for (const part of parents) {
        if (typeof target[part] !== 'object' || target[part] === null) target[part] = {};
        target = target[part] as RecordData;
      }
      target[last] = values[index];
    });
    return record;
  };
}

/** Serializes a composite id for the wire (`'FR|7'`). */
export function packId(id: CompositeId): string {
  return id.map(String).join('|');
}

/** Parses a packed id back to a composite id, converting Number primary keys. */
export function unpackId(schema: CollectionSchema, packed: string | number): CompositeId {
  const pks = getPrimaryKeys(schema);
  const parts = String(packed).split('|');
  if (parts.length !== pks.length) {
    throw new ValidationError(
      `Expected ${pks.length} primary key value(s) for [${pks.join(', ')}], found ${parts.length} in '${packed}'.`,
    );
  }
  return parts.map((part, index) => {
    const field = schema.fields[pks[index] as string];
    if (field?.type === 'Column' && field.columnType === 'Number') {
      const number = Number(part);
      if (Number.isNaN(number)) {
        throw new ValidationError(`Primary key '${pks[index]}' expects a number, got '${part}'.`);
      }
      return number;
    }
    return part;
  });
}
