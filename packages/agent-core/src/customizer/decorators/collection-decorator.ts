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
import type { DataSource } from '../../toolkit/interfaces/data-source';
import type { DataSourceDecorator } from './data-source-decorator';

/**
 * The schema version of one customizer stack (one agent's build): bumped whenever a layer's
 * customizations change its schema, so that caches compare it instead of walking the whole stack
 * on every schema access (which happens per record in some layers). Every layer of a stack shares
 * its clock (a layer takes its child's); another agent in the process has its own.
 */
export class SchemaClock {
  version = 0;

  /** A layer's schema changed: every cache of the stack is stale, every validated mark too. */
  tick(): void {
    this.version += 1;
    // Trees and sorts validated against the old schemas are validated again.
    forgetValidated();
  }
}

/** The clock of the stack a data source belongs to; a new one for a data source outside any. */
export function clockOf(dataSource: DataSource): SchemaClock {
  const clock = (dataSource as { clock?: unknown }).clock;
  return clock instanceof SchemaClock ? clock : new SchemaClock();
}

/**
 * The schema version of the stack a collection belongs to: a cache built from its schema is
 * stale once it changes. A collection outside any stack never changes its schema (0).
 */
export function schemaVersionOf(collection: Collection): number {
  return collection instanceof CollectionDecorator ? collection.dataSource.clock.version : 0;
}

/**
 * One layer of the customizer around one collection. By default it forwards everything to the
 * collection below; a layer overrides only what it changes, through two hooks: `refineSchema`
 * (computed from the child's schema, cached until the child's schema or this layer changes) and
 * `refineFilter` (applied to list, update, delete, aggregate, execute and getForm); or it
 * overrides whole operations.
 *
 * A layer that does not override `refineFilter`, or whose `keepsFilter` says it keeps a filter,
 * hands list and aggregate calls to its child as they are, returning the child's promise (no
 * promise or suspended frame of its own per layer and call). A layer that overrides an operation
 * for speed does the same: a cheap synchronous check, then either the child's promise or its own
 * async work, errors always as a rejected promise. A layer whose class changes neither lists,
 * aggregates nor filters is not called for them at all: the layer above reads from
 * {@link readTarget}, past it.
 */
export class CollectionDecorator implements Collection {
  private cachedSchema: CollectionSchema | null = null;
  private cachedVersion = -1;
  private cachedName = '';
  private cachedNameVersion = -1;

  /**
   * Where this layer's lists and aggregates go: its child, or past it when the child is a layer
   * that would forward them as they are ({@link forwardsReads}), where that layer's go.
   */
  protected readonly readTarget: Collection;

  constructor(
    /** The collection this layer wraps. */
    readonly childCollection: Collection,
    /** The data source of this layer (relations resolve their foreign collections here). */
    readonly dataSource: DataSourceDecorator,
  ) {
    this.readTarget = forwardsReads(childCollection) ? childCollection.readTarget : childCollection;
  }

  /**
   * Whether this layer overrides {@link refineFilter}: layers that do not pass filters down
   * without a promise turn for the identity.
   */
  private get refinesFilter(): boolean {
    return this.refineFilter !== CollectionDecorator.prototype.refineFilter;
  }

  /**
   * Whether {@link refineFilter} would hand `filter` down as it is, known without awaiting
   * anything: list and aggregate then pass it to the child directly, without a promise of their
   * own. A layer that refines filters overrides it with the cheap check its `refineFilter` starts
   * with; by default, only a layer that does not refine filters keeps them.
   */
  protected keepsFilter(_filter: Filter): boolean {
    return !this.refinesFilter;
  }

  /**
   * The child's name, remembered per schema version like the schema (a layer that renames does so
   * in its schema too): reading it otherwise walks every layer down to the data source.
   */
  get name(): string {
    const version = this.dataSource.clock.version;
    if (this.cachedNameVersion !== version) {
      this.cachedName = this.childCollection.name;
      this.cachedNameVersion = version;
    }
    return this.cachedName;
  }

  get nativeDriver(): unknown {
    return this.childCollection.nativeDriver;
  }

  get schema(): CollectionSchema {
    const version = this.dataSource.clock.version;
    if (!this.cachedSchema || this.cachedVersion !== version) {
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
    this.dataSource.clock.tick();
  }

  /** The schema this layer exposes, from the child's. */
  protected refineSchema(childSchema: CollectionSchema): CollectionSchema {
    return childSchema;
  }

  /**
   * The filter passed down to the child. A layer with nothing to do for a filter returns it as it
   * is (the same object), after a cheap check of what it looks at.
   */
  protected async refineFilter<F extends Filter | undefined>(
    _caller: Caller,
    filter: F,
  ): Promise<F> {
    return filter;
  }

  /** Not an async function: a layer that does not refine filters returns its child's promise. */
  list(caller: Caller, filter: PaginatedFilter, projection: Projection): Promise<RecordData[]> {
    try {
      if (this.keepsFilter(filter)) return this.readTarget.list(caller, filter, projection);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.refineFilter(caller, filter).then((refined) =>
      this.readTarget.list(caller, refined, projection),
    );
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
      if (this.keepsFilter(filter)) {
        return this.readTarget.aggregate(caller, filter, aggregation, limit);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return this.refineFilter(caller, filter).then((refined) =>
      this.readTarget.aggregate(caller, refined, aggregation, limit),
    );
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

/** What a layer does with reads: a class that overrides none of these forwards them. */
const READ_METHODS = ['list', 'aggregate', 'refineFilter', 'keepsFilter'] as const;

/**
 * Whether `collection` is a layer that hands every list and aggregate to its child as it is: its
 * class overrides none of `list`, `aggregate`, `refineFilter` and `keepsFilter` (what a layer
 * does with reads is its class's, fixed when it is built). Such a layer is read past.
 */
function forwardsReads(collection: Collection): collection is CollectionDecorator {
  if (!(collection instanceof CollectionDecorator)) return false;
  // `refineFilter` and `keepsFilter` are protected: compared by name, on both sides alike.
  const base = CollectionDecorator.prototype as unknown as Record<string, unknown>;
  const layer = collection as unknown as Record<string, unknown>;
  return READ_METHODS.every((name) => layer[name] === base[name]);
}
