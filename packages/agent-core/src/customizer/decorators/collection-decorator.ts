import type { ActionFormElement, GetFormMetas } from '../../toolkit/action/action-form';
import type { ActionResult } from '../../toolkit/action/action-result';
import type { Caller } from '../../toolkit/caller';
import type { Chart } from '../../toolkit/chart/chart';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { AggregateResult, Aggregation } from '../../toolkit/query/aggregation';
import type { Filter } from '../../toolkit/query/filter';
import type { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import type { Projection } from '../../toolkit/query/projection';
import type { CompositeId, RecordData } from '../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../toolkit/schema/collection-schema';
import { forgetValidated } from '../../toolkit/validation/validated';
import type { DataSourceDecorator } from './data-source-decorator';

/**
 * Bumped whenever any layer's customizations change its schema: caches compare it instead of
 * walking the whole stack on every schema access (which happens per record in some layers).
 */
let schemaVersion = 0;

/** The current schema version: a cache built from child schemas is stale once it changes. */
export function currentSchemaVersion(): number {
  return schemaVersion;
}

/**
 * One layer of the customizer around one collection. By default it forwards everything to the
 * collection below; a layer overrides only what it changes: `refineSchema` (computed from the
 * child's schema, cached until the child's schema or this layer changes), `refineFilter`
 * (applied to list, update, delete, aggregate, execute and getForm), or whole operations.
 */
export class CollectionDecorator implements Collection {
  private cachedSchema: CollectionSchema | null = null;
  private cachedVersion = -1;
  private cachedName = '';
  private cachedNameVersion = -1;

  constructor(
    /** The collection this layer wraps. */
    readonly childCollection: Collection,
    /** The data source of this layer (relations resolve their foreign collections here). */
    readonly dataSource: DataSourceDecorator,
  ) {}

  /**
   * Whether this layer overrides {@link refineFilter}: layers that do not pass filters down
   * without awaiting the identity (two promise turns per layer per call otherwise).
   */
  private get refinesFilter(): boolean {
    return this.refineFilter !== CollectionDecorator.prototype.refineFilter;
  }

  /**
   * The child's name, remembered per schema version like the schema (a layer that renames does so
   * in its schema too): reading it otherwise walks every layer down to the data source.
   */
  get name(): string {
    if (this.cachedNameVersion !== schemaVersion) {
      const version = schemaVersion;
      this.cachedName = this.childCollection.name;
      this.cachedNameVersion = version;
    }
    return this.cachedName;
  }

  get nativeDriver(): unknown {
    return this.childCollection.nativeDriver;
  }

  get schema(): CollectionSchema {
    if (!this.cachedSchema || this.cachedVersion !== schemaVersion) {
      const version = schemaVersion;
      this.cachedSchema = this.refineSchema(this.childCollection.schema);
      this.cachedVersion = version;
    }
    return this.cachedSchema;
  }

  /**
   * Forces schemas to be recomputed (call after a customization changes this layer); the layers
   * above see the change too. Data sources must not change their schemas after being built.
   */
  markSchemaAsDirty(): void {
    this.cachedSchema = null;
    schemaVersion += 1;
    // Trees and sorts validated against the old schemas are validated again.
    forgetValidated();
  }

  /** The schema this layer exposes, from the child's. */
  protected refineSchema(childSchema: CollectionSchema): CollectionSchema {
    return childSchema;
  }

  /** The filter passed down to the child. */
  protected async refineFilter<F extends Filter | undefined>(
    _caller: Caller,
    filter: F,
  ): Promise<F> {
    return filter;
  }

  /**
   * Whether {@link refineFilter} would pass `filter` down unchanged: a cheap synchronous check
   * that lets list and aggregate hand the filter straight to the child when this layer has
   * nothing to do for it. Layers that refine filters override it with what they look at; by
   * default only layers that do not refine filters keep them.
   */
  protected keepsFilter(_caller: Caller, _filter: Filter): boolean {
    return !this.refinesFilter;
  }

  /**
   * Not an async function: when {@link listsThrough} says so, the layer returns its child's
   * promise as it is, without a promise and a suspended frame of its own per layer and call;
   * otherwise {@link listOwn} does the layer's work. Errors come out as a rejected promise, never
   * as a throw. Layers override those two, not this.
   */
  list(caller: Caller, filter: PaginatedFilter, projection: Projection): Promise<RecordData[]> {
    try {
      if (this.listsThrough(caller, filter, projection)) {
        return this.childCollection.list(caller, filter, projection);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return this.listOwn(caller, filter, projection);
  }

  /**
   * Whether a list goes straight to the child, unchanged (a cheap check; a throw refuses the
   * list). By default, when the layer keeps the filter.
   */
  protected listsThrough(
    caller: Caller,
    filter: PaginatedFilter,
    _projection: Projection,
  ): boolean {
    return this.keepsFilter(caller, filter);
  }

  /** A list this layer takes part in; by default, its refined filter handed down. */
  protected async listOwn(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    return this.childCollection.list(caller, await this.refineFilter(caller, filter), projection);
  }

  async create(caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    return this.childCollection.create(caller, data);
  }

  async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    return this.childCollection.update(caller, await this.refineFilter(caller, filter), patch);
  }

  async delete(caller: Caller, filter: Filter): Promise<void> {
    return this.childCollection.delete(caller, await this.refineFilter(caller, filter));
  }

  /** Not an async function, as {@link list}. */
  aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    try {
      if (this.keepsFilter(caller, filter)) {
        return this.childCollection.aggregate(caller, filter, aggregation, limit);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return this.aggregateRefined(caller, filter, aggregation, limit);
  }

  private async aggregateRefined(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    const refined = await this.refineFilter(caller, filter);
    return this.childCollection.aggregate(caller, refined, aggregation, limit);
  }

  async execute(
    caller: Caller,
    name: string,
    formValues: RecordData,
    filter?: Filter,
  ): Promise<ActionResult> {
    const refined = await this.refineFilter(caller, filter);
    return this.childCollection.execute(caller, name, formValues, refined);
  }

  async getForm(
    caller: Caller,
    name: string,
    formValues?: RecordData,
    filter?: Filter,
    metas?: GetFormMetas,
  ): Promise<ActionFormElement[]> {
    const refined = await this.refineFilter(caller, filter);
    return this.childCollection.getForm(caller, name, formValues, refined, metas);
  }

  async renderChart(
    caller: Caller,
    name: string,
    recordId: CompositeId,
    parameters?: Record<string, unknown>,
  ): Promise<Chart> {
    return this.childCollection.renderChart(caller, name, recordId, parameters);
  }
}
