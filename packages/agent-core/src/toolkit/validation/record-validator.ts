import { ValidationError } from '../errors/canopy-error';
import { MissingFieldError } from '../errors/schema-errors';
import type { Collection } from '../interfaces/collection';
import type { RecordData } from '../record/record-utils';
import { validateWrittenValue } from './value-validator';

/**
 * Validates a record (or patch) before a write: every key is a writable column with a value of
 * its type, or a ManyToOne/OneToOne relation whose nested object is valid for the foreign
 * collection.
 */
export function validateRecord(collection: Collection, record: RecordData): void {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new ValidationError(
      `A record of '${collection.name}' must be an object, got ${JSON.stringify(record)}.`,
    );
  }
  for (const [key, value] of Object.entries(record)) {
    const field = collection.schema.fields[key];
    if (!field)
      throw new MissingFieldError(collection.name, key, Object.keys(collection.schema.fields));
    if (field.type === 'Column') {
      if (field.isReadOnly) {
        throw new ValidationError(
          `The '${collection.name}.${key}' field is read-only and cannot be written.`,
        );
      }
      validateWrittenValue(`${collection.name}.${key}`, field, value);
    } else if (field.type === 'ManyToOne' || field.type === 'OneToOne') {
      if (value === null) continue;
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new ValidationError(
          `The '${collection.name}.${key}' relation expects an object of '${field.foreignCollection}' fields, got ${JSON.stringify(value)}.`,
        );
      }
      validateRecord(
        collection.dataSource.getCollection(field.foreignCollection),
        value as RecordData,
      );
    } else {
      throw new ValidationError(
        `The '${collection.name}.${key}' field is a ${field.type} relation and cannot be written in a record.`,
      );
    }
  }
}
