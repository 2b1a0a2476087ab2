import type { Caller } from '../../toolkit/caller';
import type { Chart } from '../../toolkit/chart/chart';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { DataSource } from '../../toolkit/interfaces/data-source';
import type { RecordData } from '../../toolkit/record/record-utils';
import type { DataSourceSchema } from '../../toolkit/schema/collection-schema';
import { type CollectionDecorator, type SchemaClock, clockOf } from './collection-decorator';

/** Builds the decorator of one child collection for a layer. */
export type CollectionDecoratorConstructor<C extends CollectionDecorator> = new (
  child: Collection,
  // Typed loosely so that layers typing their own `dataSource` more precisely stay assignable.
  dataSource: never,
) => C;

/**
 * One layer of the customizer around a whole data source: wraps each child collection lazily,
 * once, with the layer's collection decorator.
 */
export class DataSourceDecorator<
  C extends CollectionDecorator = CollectionDecorator,
> implements DataSource<C> {
  private readonly decorators = new Map<Collection, C>();
  private readonly facts = new Map<string, { version: number; value: unknown }>();

  /** The schema clock of the stack: the child's (a layer below), else a new one. */
  readonly clock: SchemaClock;

  constructor(
    readonly childDataSource: DataSource,
    private readonly CollectionDecoratorClass: CollectionDecoratorConstructor<C>,
  ) {
    this.clock = clockOf(childDataSource);
  }

  get collections(): C[] {
    return this.childDataSource.collections.map((child) => this.decorate(child));
  }

  get schema(): DataSourceSchema {
    return this.childDataSource.schema;
  }

  get nativeQueryConnections(): Record<string, unknown> {
    return this.childDataSource.nativeQueryConnections;
  }

  /**
   * A fact about this layer's collections (e.g. "one of them has computed fields"), computed
   * once per schema version: every customization that could change it marks the schema dirty.
   * Layers use such facts to pass requests straight through when they have nothing to do.
   */
  fact<T>(key: string, compute: (collections: C[]) => T): T {
    const version = this.clock.version;
    const known = this.facts.get(key);
    if (known?.version === version) return known.value as T;
    const value = compute(this.collections);
    this.facts.set(key, { version, value });
    return value;
  }

  getCollection(name: string): C {
    return this.decorate(this.childDataSource.getCollection(name));
  }

  async renderChart(
    caller: Caller,
    name: string,
    parameters?: Record<string, unknown>,
  ): Promise<Chart> {
    return this.childDataSource.renderChart(caller, name, parameters);
  }

  async executeNativeQuery(
    connectionName: string,
    query: string,
    contextVariables?: Record<string, unknown>,
    caller?: Caller,
  ): Promise<RecordData[]> {
    return this.childDataSource.executeNativeQuery(connectionName, query, contextVariables, caller);
  }

  async close(): Promise<void> {
    await this.childDataSource.close?.();
  }

  private decorate(child: Collection): C {
    let decorator = this.decorators.get(child);
    if (!decorator) {
      decorator = new this.CollectionDecoratorClass(child, this as never);
      this.decorators.set(child, decorator);
    }
    return decorator;
  }
}
