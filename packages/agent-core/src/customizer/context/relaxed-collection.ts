import type { ActionFormElement } from '../../toolkit/action/action-form';
import type { ActionResult } from '../../toolkit/action/action-result';
import type { Caller } from '../../toolkit/caller';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { DataSource } from '../../toolkit/interfaces/data-source';
import {
  type AggregateResult,
  Aggregation,
  type AggregationComponents,
} from '../../toolkit/query/aggregation';
import type { PlainConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { Filter } from '../../toolkit/query/filter';
import { Page } from '../../toolkit/query/page';
import { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import { Projection } from '../../toolkit/query/projection';
import type { SortClause } from '../../toolkit/query/sort';
import type { RecordData } from '../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../toolkit/schema/collection-schema';
import { validateConditionTree } from '../../toolkit/validation/condition-tree-validator';
import { validateRecord } from '../../toolkit/validation/record-validator';

/** A filter as a plain object, as accepted by relaxed collections. */
export interface PlainFilter {
  conditionTree?: PlainConditionTree | ConditionTree | null;
  search?: string | null;
  searchExtended?: boolean;
  segment?: string | null;
  sort?: SortClause[];
  page?: { skip?: number; limit?: number | null };
}

/** Converts a plain filter (or a filter) to a {@link PaginatedFilter}. */
export function toPaginatedFilter(
  filter: PlainFilter | Filter | null | undefined,
): PaginatedFilter {
  if (filter instanceof PaginatedFilter) return filter;
  if (filter instanceof Filter) return new PaginatedFilter({ ...filter });
  const { page, ...rest } = filter ?? {};
  return new PaginatedFilter({
    ...rest,
    page: page ? new Page(page.skip ?? 0, page.limit ?? null) : null,
  });
}

/**
 * A collection bound to a caller, accepting plain objects: what customization code receives as
 * `context.collection` and from `context.dataSource.getCollection(name)`.
 *
 * @example
 * const books = await context.collection.list({ conditionTree: { field: 'price', operator: 'LessThan', value: 10 } }, ['id', 'title']);
 */
export class RelaxedCollection {
  constructor(
    private readonly collection: Collection,
    private readonly caller: Caller,
  ) {}

  get name(): string {
    return this.collection.name;
  }

  get schema(): CollectionSchema {
    return this.collection.schema;
  }

  get nativeDriver(): unknown {
    return this.collection.nativeDriver;
  }

  /** The filter as a {@link PaginatedFilter}, with its condition tree checked first. */
  private filter(filter: PlainFilter | Filter | null | undefined): PaginatedFilter {
    const paginated = toPaginatedFilter(filter);
    validateConditionTree(this.collection, paginated.conditionTree);
    return paginated;
  }

  async list(
    filter: PlainFilter | Filter | null,
    projection: readonly string[],
  ): Promise<RecordData[]> {
    return this.collection.list(this.caller, this.filter(filter), new Projection(...projection));
  }

  async create(records: RecordData[]): Promise<RecordData[]> {
    for (const record of records) validateRecord(this.collection, record);
    return this.collection.create(this.caller, records);
  }

  async update(filter: PlainFilter | Filter | null, patch: RecordData): Promise<void> {
    validateRecord(this.collection, patch);
    return this.collection.update(this.caller, this.filter(filter), patch);
  }

  async delete(filter: PlainFilter | Filter | null): Promise<void> {
    return this.collection.delete(this.caller, this.filter(filter));
  }

  async aggregate(
    filter: PlainFilter | Filter | null,
    aggregation: AggregationComponents | Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    const built = aggregation instanceof Aggregation ? aggregation : new Aggregation(aggregation);
    return this.collection.aggregate(this.caller, this.filter(filter), built, limit);
  }

  execute(
    name: string,
    formValues: RecordData,
    filter?: PlainFilter | Filter,
  ): Promise<ActionResult> {
    return this.collection.execute(this.caller, name, formValues, toPaginatedFilter(filter));
  }

  getForm(
    name: string,
    formValues?: RecordData,
    filter?: PlainFilter | Filter,
  ): Promise<ActionFormElement[]> {
    return this.collection.getForm(this.caller, name, formValues, toPaginatedFilter(filter));
  }
}

/** A data source bound to a caller, handing out {@link RelaxedCollection}s. */
export class RelaxedDataSource {
  constructor(
    private readonly dataSource: DataSource,
    private readonly caller: Caller,
  ) {}

  getCollection(name: string): RelaxedCollection {
    return new RelaxedCollection(this.dataSource.getCollection(name), this.caller);
  }
}
