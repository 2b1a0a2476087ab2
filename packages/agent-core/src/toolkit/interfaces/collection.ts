import type { ActionFormElement, GetFormMetas } from '../action/action-form';
import type { ActionResult } from '../action/action-result';
import type { Caller } from '../caller';
import type { Chart } from '../chart/chart';
import type { AggregateResult, Aggregation } from '../query/aggregation';
import type { Filter } from '../query/filter';
import type { PaginatedFilter } from '../query/paginated-filter';
import type { Projection } from '../query/projection';
import type { CompositeId, RecordData } from '../record/record-utils';
import type { CollectionSchema } from '../schema/collection-schema';
import type { DataSource } from './data-source';

/**
 * A collection of records. Every operation receives the {@link Caller} first.
 *
 * Data sources implement it (usually by extending {@link BaseCollection}); each customizer
 * layer implements it by wrapping the collection below.
 */
export interface Collection {
  readonly name: string;
  readonly schema: CollectionSchema;
  readonly dataSource: DataSource;
  /** The underlying driver handle (for the SQL source: knex), when there is one. */
  readonly nativeDriver: unknown;

  /**
   * Records matching the filter, sorted and paginated, each containing exactly the projected
   * paths (relations as nested objects; `null` when the related record is missing).
   */
  list(caller: Caller, filter: PaginatedFilter, projection: Projection): Promise<RecordData[]>;
  /** Creates records and returns them with generated values (primary keys, defaults), in order. */
  create(caller: Caller, data: RecordData[]): Promise<RecordData[]>;
  /** Applies the same patch to every matching record. */
  update(caller: Caller, filter: Filter, patch: RecordData): Promise<void>;
  /** Deletes every matching record. */
  delete(caller: Caller, filter: Filter): Promise<void>;
  /** Aggregates matching records; rows by value descending, at most `limit`. */
  aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]>;
  /** Runs an action on the records selected by `filter`. */
  execute(
    caller: Caller,
    name: string,
    formValues: RecordData,
    filter?: Filter,
  ): Promise<ActionResult>;
  /** Computes an action's form for the current values. */
  getForm(
    caller: Caller,
    name: string,
    formValues?: RecordData,
    filter?: Filter,
    metas?: GetFormMetas,
  ): Promise<ActionFormElement[]>;
  /** Renders a collection chart for one record. */
  renderChart(
    caller: Caller,
    name: string,
    recordId: CompositeId,
    parameters?: Record<string, unknown>,
  ): Promise<Chart>;
}
