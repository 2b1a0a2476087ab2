import type { Caller } from '../caller';
import type { Chart } from '../chart/chart';
import type { RecordData } from '../record/record-utils';
import type { DataSourceSchema } from '../schema/collection-schema';
import type { Collection } from './collection';
import type { Logger } from './logger';

/**
 * A set of collections, plus data-source-level charts and native queries.
 */
export interface DataSource<C extends Collection = Collection> {
  readonly collections: C[];
  readonly schema: DataSourceSchema;
  /** Native-query connections by name (for live-query segments and charts). */
  readonly nativeQueryConnections: Record<string, unknown>;

  /** The named collection; unknown names throw a missing-collection error listing the others. */
  getCollection(name: string): C;
  /** Renders a data-source-level chart. */
  renderChart(caller: Caller, name: string, parameters?: Record<string, unknown>): Promise<Chart>;
  /**
   * Runs a read-only native query on a named connection; `$name` placeholders are bound. With a
   * `caller` carrying a transaction on that connection (a write's audit unit), the query runs in
   * that transaction rather than on another connection of the pool.
   */
  executeNativeQuery(
    connectionName: string,
    query: string,
    contextVariables?: Record<string, unknown>,
    caller?: Caller,
  ): Promise<RecordData[]>;
  /** Releases connections held by the data source (called when the agent stops). */
  close?(): Promise<void>;
}

/**
 * Builds a data source. `restartAgent` lets a data source ask the agent to rebuild itself (e.g.
 * after its schema changed).
 *
 * @example
 * const factory: DataSourceFactory = async () => new InMemoryDataSource([books]);
 */
export type DataSourceFactory = (
  logger: Logger,
  restartAgent: () => Promise<void>,
) => Promise<DataSource>;
