import type { Caller } from '../../toolkit/caller';
import type { Chart } from '../../toolkit/chart/chart';
import { ValidationError, isCanopyError } from '../../toolkit/errors/canopy-error';
import { MissingCollectionError } from '../../toolkit/errors/schema-errors';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { DataSource } from '../../toolkit/interfaces/data-source';
import type { RecordData } from '../../toolkit/record/record-utils';
import type { DataSourceSchema } from '../../toolkit/schema/collection-schema';

/**
 * The bottom of the stack: the union of the added data sources. Collection names, chart names
 * and native-query connection names must not collide.
 */
export class CompositeDataSource implements DataSource {
  private readonly dataSources: DataSource[] = [];

  get collections(): Collection[] {
    return this.dataSources.flatMap((dataSource) => dataSource.collections);
  }

  get schema(): DataSourceSchema {
    return { charts: this.dataSources.flatMap((dataSource) => dataSource.schema.charts) };
  }

  get nativeQueryConnections(): Record<string, unknown> {
    return Object.assign({}, ...this.dataSources.map((ds) => ds.nativeQueryConnections));
  }

  /** Adds a data source after checking that none of its names is already used. */
  addDataSource(dataSource: DataSource): void {
    const names = new Set(this.collections.map((collection) => collection.name));
    for (const collection of dataSource.collections) {
      if (names.has(collection.name)) {
        throw new ValidationError(`Collection '${collection.name}' already exists.`);
      }
    }
    const charts = new Set(this.schema.charts);
    for (const chart of dataSource.schema.charts) {
      if (charts.has(chart))
        throw new ValidationError(`Chart '${chart}' is already defined in datasource.`);
    }
    for (const connection of Object.keys(dataSource.nativeQueryConnections)) {
      if (connection in this.nativeQueryConnections) {
        throw new ValidationError(`Native Query connection '${connection}' is already defined.`);
      }
    }
    this.dataSources.push(dataSource);
  }

  getCollection(name: string): Collection {
    for (const dataSource of this.dataSources) {
      if (dataSource.collections.some((collection) => collection.name === name)) {
        return dataSource.getCollection(name);
      }
    }
    // A data source may know better why the name is missing (e.g. the collection was renamed).
    for (const dataSource of this.dataSources) {
      try {
        dataSource.getCollection(name);
      } catch (error) {
        if (!isCanopyError(error, { code: 'MISSING_COLLECTION' })) throw error;
      }
    }
    throw new MissingCollectionError(
      name,
      this.collections.map((collection) => collection.name),
    );
  }

  async renderChart(
    caller: Caller,
    name: string,
    parameters?: Record<string, unknown>,
  ): Promise<Chart> {
    const owner = this.dataSources.find((dataSource) => dataSource.schema.charts.includes(name));
    if (!owner) {
      throw new ValidationError(
        `Chart '${name}' is not defined. Available charts are: [${this.schema.charts.join(', ')}].`,
      );
    }
    return owner.renderChart(caller, name, parameters);
  }

  async executeNativeQuery(
    connectionName: string,
    query: string,
    contextVariables?: Record<string, unknown>,
    caller?: Caller,
  ): Promise<RecordData[]> {
    const owner = this.dataSources.find((ds) => connectionName in ds.nativeQueryConnections);
    if (!owner) {
      throw new ValidationError(
        `Unknown connection name '${connectionName}'. Available connections are: [${Object.keys(this.nativeQueryConnections).join(', ')}].`,
      );
    }
    return owner.executeNativeQuery(connectionName, query, contextVariables, caller);
  }

  /** Closes every data source that holds connections. */
  async close(): Promise<void> {
    await Promise.all(this.dataSources.map((dataSource) => dataSource.close?.()));
  }
}
