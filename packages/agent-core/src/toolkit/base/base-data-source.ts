import type { Caller } from '../caller';
import type { Chart } from '../chart/chart';
import { UnprocessableError, ValidationError } from '../errors/canopy-error';
import { MissingCollectionError } from '../errors/schema-errors';
import type { Collection } from '../interfaces/collection';
import type { DataSource } from '../interfaces/data-source';
import type { RecordData } from '../record/record-utils';
import type { DataSourceSchema } from '../schema/collection-schema';

/**
 * A starting point for data sources: a registry of collections with duplicate checks.
 *
 * @example
 * class ShopDataSource extends BaseDataSource {
 *   constructor() {
 *     super();
 *     this.addCollection(new BookCollection(this));
 *   }
 * }
 */
export class BaseDataSource<C extends Collection = Collection> implements DataSource<C> {
  readonly schema: DataSourceSchema = { charts: [] };
  readonly nativeQueryConnections: Record<string, unknown> = {};
  private readonly byName = new Map<string, C>();

  get collections(): C[] {
    return [...this.byName.values()];
  }

  getCollection(name: string): C {
    const collection = this.byName.get(name);
    if (!collection) throw new MissingCollectionError(name, [...this.byName.keys()]);
    return collection;
  }

  /** Registers a collection; names must be unique. */
  protected addCollection(collection: C): void {
    if (this.byName.has(collection.name)) {
      throw new ValidationError(`Collection '${collection.name}' already exists.`);
    }
    this.byName.set(collection.name, collection);
  }

  /** Registers a native-query connection; names must be unique. */
  protected addNativeQueryConnection(name: string, connection: unknown): void {
    if (name in this.nativeQueryConnections) {
      throw new ValidationError(`Native Query connection '${name}' is already defined.`);
    }
    this.nativeQueryConnections[name] = connection;
  }

  async renderChart(_caller: Caller, name: string): Promise<Chart> {
    throw new UnprocessableError(`Chart '${name}' is not implemented on this data source.`);
  }

  async executeNativeQuery(
    connectionName: string,
    _query: string,
    _contextVariables?: Record<string, unknown>,
    _caller?: Caller,
  ): Promise<RecordData[]> {
    throw new UnprocessableError(
      `Native queries are not supported by this data source (connection '${connectionName}').`,
    );
  }
}
