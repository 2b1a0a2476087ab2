import type { Collection } from '../../toolkit/interfaces/collection';
import { Projection } from '../../toolkit/query/projection';
import { getPrimaryKeys } from '../../toolkit/schema/schema-utils';

/**
 * The default projection (§6.2): every column, plus every column of each to-one relation.
 */
export function defaultProjection(collection: Collection): Projection {
  const paths: string[] = [];
  for (const [name, field] of Object.entries(collection.schema.fields)) {
    if (field.type === 'Column') paths.push(name);
    else if (field.type === 'ManyToOne' || field.type === 'OneToOne') {
      const foreign = collection.dataSource.getCollection(field.foreignCollection);
      for (const [sub, subField] of Object.entries(foreign.schema.fields)) {
        if (subField.type === 'Column') paths.push(`${name}:${sub}`);
      }
    }
  }
  return new Projection(...paths);
}

/** The projection plus the primary keys of the collection and of each projected relation. */
export function withPrimaryKeys(collection: Collection, projection: Projection): Projection {
  const keys = getPrimaryKeys(collection.schema);
  const relationKeys = Object.keys(projection.relations).flatMap((relation) => {
    const field = collection.schema.fields[relation];
    if (field?.type !== 'ManyToOne' && field?.type !== 'OneToOne') return [];
    const foreign = collection.dataSource.getCollection(field.foreignCollection);
    return getPrimaryKeys(foreign.schema).map((key) => `${relation}:${key}`);
  });
  return projection.union(keys, relationKeys);
}
