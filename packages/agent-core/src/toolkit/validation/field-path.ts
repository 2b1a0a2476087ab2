import { ValidationError } from '../errors/canopy-error';
import { MissingFieldError, UnexpectedFieldTypeError } from '../errors/schema-errors';
import type { ColumnTypeResolver } from '../evaluator/match-record';
import type { Collection } from '../interfaces/collection';
import type { ColumnSchema } from '../schema/field-schema';

/** A column reached through a field path, with the collection that owns it. */
export interface ResolvedColumn {
  collection: Collection;
  name: string;
  schema: ColumnSchema;
}

/**
 * Follows a field path (`title`, `author:country:name`) through ManyToOne / OneToOne relations
 * to the column it ends on, or to a key inside a `Json` column that declares `jsonKeyOperators`
 * (`address:country`: a `Json` value filterable with those operators); unknown fields, to-many
 * hops and paths ending on a relation are reported with the collection at fault.
 */
export function resolveColumnPath(collection: Collection, path: string): ResolvedColumn {
  const [head, ...rest] = path.split(':');
  const name = head ?? '';
  const field = collection.schema.fields[name];
  if (!field) {
    throw new MissingFieldError(collection.name, name, Object.keys(collection.schema.fields));
  }
  if (rest.length === 0) {
    if (field.type !== 'Column') {
      throw new UnexpectedFieldTypeError(collection.name, name, field.type, ['Column']);
    }
    return { collection, name, schema: field };
  }
  if (field.type === 'Column' && field.jsonKeyOperators?.size) {
    // A key path inside a Json column its data source filters on (`address:country`).
    const schema: ColumnSchema = {
      type: 'Column',
      columnType: 'Json',
      filterOperators: field.jsonKeyOperators,
    };
    return { collection, name: path, schema };
  }
  if (field.type !== 'ManyToOne' && field.type !== 'OneToOne') {
    throw new UnexpectedFieldTypeError(collection.name, name, field.type, [
      'ManyToOne',
      'OneToOne',
    ]);
  }
  const foreign = collection.dataSource.getCollection(field.foreignCollection);
  return resolveColumnPath(foreign, rest.join(':'));
}

/** A resolver of column types for the in-memory evaluator, over a collection's schema. */
export function columnTypeResolver(collection: Collection): ColumnTypeResolver {
  const cache = new Map<string, ReturnType<ColumnTypeResolver>>();
  return (path) => {
    let type = cache.get(path);
    if (!type) {
      type = resolveColumnPath(collection, path).schema.columnType;
      cache.set(path, type);
    }
    return type;
  };
}

/** Field names chosen in customizations must not contain spaces or `:`. */
export function validateFieldName(collection: string, name: string): void {
  if (typeof name !== 'string' || name.length === 0) {
    throw new ValidationError(`A field name of '${collection}' must be a non-empty string.`);
  }
  if (name.includes(' ')) {
    const suggestion = name
      .trim()
      .split(/\s+/)
      .map((word, index) =>
        index === 0 ? word.toLowerCase() : word[0]?.toUpperCase() + word.slice(1).toLowerCase(),
      )
      .join('');
    throw new ValidationError(
      `The name of field '${collection}.${name}' must not contain space. Something like '${suggestion}' should work.`,
    );
  }
  if (name.includes(':')) {
    throw new ValidationError(`The name of field '${collection}.${name}' must not contain ':'.`);
  }
}
