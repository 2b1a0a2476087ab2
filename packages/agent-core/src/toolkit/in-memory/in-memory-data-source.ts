import { BaseDataSource } from '../base/base-data-source';
import type { DataSourceFactory } from '../interfaces/data-source';
import { type InMemoryCollectionDefinition, InMemoryCollection } from './in-memory-collection';

/**
 * A data source of in-memory collections, for tests and prototypes.
 *
 * @example
 * const dataSource = new InMemoryDataSource({
 *   books: {
 *     fields: {
 *       id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
 *       title: { type: 'Column', columnType: 'String' },
 *     },
 *     records: [{ id: 1, title: 'Dune' }],
 *   },
 * });
 */
export class InMemoryDataSource extends BaseDataSource<InMemoryCollection> {
  constructor(definitions: Record<string, InMemoryCollectionDefinition> = {}) {
    super();
    for (const [name, definition] of Object.entries(definitions)) {
      this.addCollection(new InMemoryCollection(name, this, definition));
    }
  }
}

/**
 * A factory for `addDataSource` building a fresh in-memory data source on each (re)start.
 *
 * @example
 * agent.addDataSource(createInMemoryDataSource({ books: { fields: { … }, records: [ … ] } }));
 */
export function createInMemoryDataSource(
  definitions: Record<string, InMemoryCollectionDefinition>,
): DataSourceFactory {
  return async () => new InMemoryDataSource(definitions);
}
