import type { Caller } from '../toolkit/caller';
import type { Chart } from '../toolkit/chart/chart';
import { UnprocessableError, ValidationError } from '../toolkit/errors/canopy-error';
import { MissingCollectionError } from '../toolkit/errors/schema-errors';
import type { Collection } from '../toolkit/interfaces/collection';
import type { DataSource } from '../toolkit/interfaces/data-source';
import type { RecordData } from '../toolkit/record/record-utils';
import type { DataSourceSchema } from '../toolkit/schema/collection-schema';

/**
 * The union of the data sources added to the agent: their collections, charts and native-query
 * connections side by side (names must not collide), and `close()` closing each of them.
 */
export class CompositeDataSource implements DataSource {
  private readonly byCollection = new Map<string, DataSource>();
  private readonly byChart = new Map<string, DataSource>();
  private readonly byConnection = new Map<string, DataSource>();

  /**
   * @throws ValidationError when two data sources share a collection, chart or native-query
   * connection name.
   */
  constructor(private readonly dataSources: readonly DataSource[]) {
    for (const dataSource of dataSources) {
      for (const collection of dataSource.collections) {
        claim(
          this.byCollection,
          collection.name,
          dataSource,
          `Collection '${collection.name}' already exists.`,
        );
      }
      for (const chart of dataSource.schema.charts) {
        claim(
          this.byChart,
          chart,
          dataSource,
          `Chart '${chart}' is already defined in datasource.`,
        );
      }
      for (const connection of Object.keys(dataSource.nativeQueryConnections)) {
        claim(
          this.byConnection,
          connection,
          dataSource,
          `Native Query connection '${connection}' is already defined.`,
        );
      }
    }
  }

  get collections(): Collection[] {
    return this.dataSources.flatMap((dataSource) => dataSource.collections);
  }

  get schema(): DataSourceSchema {
    return { charts: [...this.byChart.keys()] };
  }

  get nativeQueryConnections(): Record<string, unknown> {
    return Object.assign(
      {},
      ...this.dataSources.map((dataSource) => dataSource.nativeQueryConnections),
    );
  }

  getCollection(name: string): Collection {
    const owner = this.byCollection.get(name);
    if (!owner) throw new MissingCollectionError(name, [...this.byCollection.keys()]);
    return owner.getCollection(name);
  }

  renderChart(caller: Caller, name: string, parameters?: Record<string, unknown>): Promise<Chart> {
    const owner = this.byChart.get(name);
    if (!owner) {
      return Promise.reject(
        new UnprocessableError(`Chart '${name}' is not defined on any data source.`),
      );
    }
    return owner.renderChart(caller, name, parameters);
  }

  executeNativeQuery(
    connectionName: string,
    query: string,
    contextVariables?: Record<string, unknown>,
  ): Promise<RecordData[]> {
    const owner = this.byConnection.get(connectionName);
    if (!owner) {
      return Promise.reject(
        new UnprocessableError(
          `Native query connection '${connectionName}' is unknown. Known connections: ` +
            `${[...this.byConnection.keys()].join(', ') || 'none'}.`,
        ),
      );
    }
    return owner.executeNativeQuery(connectionName, query, contextVariables);
  }

  /** Closes every data source (all are attempted; the first failure is rethrown). */
  async close(): Promise<void> {
    const results = await Promise.allSettled(
      this.dataSources.map((dataSource) => dataSource.close?.()),
    );
    const failure = results.find(
      (result): result is PromiseRejectedResult => result.status === 'rejected',
    );
    if (failure) throw failure.reason;
  }
}

function claim(
  map: Map<string, DataSource>,
  name: string,
  owner: DataSource,
  message: string,
): void {
  if (map.has(name)) throw new ValidationError(message, { code: 'DUPLICATE_NAME' });
  map.set(name, owner);
}
