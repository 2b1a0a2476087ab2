import { compareNames } from '../toolkit/compare-names';
import type { Collection } from '../toolkit/interfaces/collection';
import { type ActionRouteOptions, generateActions } from './action-schema-generator';
import { generateFields } from './field-schema-generator';
import type { SchemaCollection } from './schema-json';

/** The schema-file object of one collection (protocol §13.3), keys in alphabetical order. */
export async function generateCollection(
  collection: Collection,
  options: ActionRouteOptions,
): Promise<SchemaCollection> {
  const { schema } = collection;
  const columns = Object.values(schema.fields).filter((field) => field.type === 'Column');
  return {
    actions: await generateActions(collection, options),
    fields: generateFields(collection),
    icon: null,
    integration: null,
    isReadOnly: columns.length > 0 && columns.every((column) => column.isReadOnly === true),
    isSearchable: schema.searchable,
    isVirtual: false,
    name: collection.name,
    onlyForRelationships: false,
    paginationType: 'page',
    segments: [...schema.segments]
      .sort((a, b) => compareNames(a, b))
      .map((name) => ({ id: `${collection.name}.${name}`, name })),
  };
}
