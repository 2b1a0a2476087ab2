import {
  MissingColumnError,
  MissingFieldError,
  MissingRelationError,
  UnexpectedFieldTypeError,
} from '../errors/schema-errors';
import type { CollectionSchema } from './collection-schema';
import type { ColumnSchema, FieldSchema, RelationSchema } from './field-schema';

/** The primary-key columns of a collection, in field order. */
export function getPrimaryKeys(schema: CollectionSchema): string[] {
  return Object.entries(schema.fields)
    .filter(([, field]) => field.type === 'Column' && field.isPrimaryKey)
    .map(([name]) => name);
}

/** Names of the columns of a collection. */
export function getColumnNames(schema: CollectionSchema): string[] {
  return Object.keys(schema.fields).filter((name) => schema.fields[name]?.type === 'Column');
}

/** A field of a collection, or a missing-field error listing the available ones. */
export function getField(collection: string, schema: CollectionSchema, name: string): FieldSchema {
  const field = schema.fields[name];
  if (!field) throw new MissingFieldError(collection, name, Object.keys(schema.fields));
  return field;
}

/** A column of a collection; unknown names and relations are reported. */
export function getColumn(
  collection: string,
  schema: CollectionSchema,
  name: string,
): ColumnSchema {
  const field = schema.fields[name];
  if (!field) throw new MissingColumnError(collection, name, getColumnNames(schema));
  if (field.type !== 'Column') {
    throw new UnexpectedFieldTypeError(collection, name, field.type, ['Column']);
  }
  return field;
}

/** A relation of a collection; unknown names and columns are reported. */
export function getRelation(
  collection: string,
  schema: CollectionSchema,
  name: string,
): RelationSchema {
  const field = schema.fields[name];
  if (!field || field.type === 'Column') {
    const relations = Object.keys(schema.fields).filter((n) => schema.fields[n]?.type !== 'Column');
    if (!field) throw new MissingRelationError(collection, name, relations);
    throw new UnexpectedFieldTypeError(collection, name, 'Column', [
      'ManyToOne',
      'OneToOne',
      'OneToMany',
      'ManyToMany',
    ]);
  }
  return field;
}
