import type { Caller } from '../../toolkit/caller';
import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { DataSource } from '../../toolkit/interfaces/data-source';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import { Projection } from '../../toolkit/query/projection';
import type { CompositeId, RecordData } from '../../toolkit/record/record-utils';
import {
  AgentCustomizationContext,
  CollectionCustomizationContext,
} from '../context/customization-context';

/** Context of a data-source chart: the caller's time zone and the chart's parameters. */
export class DataSourceChartContext extends AgentCustomizationContext {
  readonly parameters: Readonly<Record<string, unknown>>;

  constructor(dataSource: DataSource, caller: Caller, parameters: Record<string, unknown> = {}) {
    super(dataSource, caller);
    this.parameters = Object.freeze({ ...parameters });
  }

  /** The caller's IANA time zone. */
  get timezone(): string {
    return this.caller.timezone;
  }
}

/** Context of a collection chart: the record it is displayed on. */
export class CollectionChartContext extends CollectionCustomizationContext {
  readonly parameters: Readonly<Record<string, unknown>>;

  constructor(
    collection: Collection,
    caller: Caller,
    readonly compositeRecordId: CompositeId,
    parameters: Record<string, unknown> = {},
  ) {
    super(collection, caller);
    this.parameters = Object.freeze({ ...parameters });
  }

  /** The caller's IANA time zone. */
  get timezone(): string {
    return this.caller.timezone;
  }

  /** The record id (collections with a single-column primary key only). */
  get recordId(): string | number {
    if (this.compositeRecordId.length !== 1) {
      throw new ValidationError(
        `Collection '${this.realCollection.name}' has a composite primary key: use compositeRecordId instead of recordId.`,
      );
    }
    return this.compositeRecordId[0] as string | number;
  }

  /** Reads fields of the record. */
  async getRecord(fields: string[]): Promise<RecordData> {
    const [record] = await this.realCollection.list(
      this.caller,
      new PaginatedFilter({
        conditionTree: ConditionTreeFactory.matchIds(this.realCollection.schema, [
          this.compositeRecordId,
        ]),
      }),
      new Projection(...fields),
    );
    if (!record)
      throw new ValidationError(
        `Record ${JSON.stringify(this.compositeRecordId)} of '${this.realCollection.name}' not found.`,
      );
    return record;
  }
}
