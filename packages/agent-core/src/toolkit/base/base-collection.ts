import type { ActionFormElement, GetFormMetas } from '../action/action-form';
import type { ActionResult } from '../action/action-result';
import type { Caller } from '../caller';
import type { Chart } from '../chart/chart';
import { UnprocessableError, ValidationError } from '../errors/canopy-error';
import { AlreadyDefinedFieldError } from '../errors/schema-errors';
import type { Collection } from '../interfaces/collection';
import type { DataSource } from '../interfaces/data-source';
import type { AggregateResult, Aggregation } from '../query/aggregation';
import type { Filter } from '../query/filter';
import type { PaginatedFilter } from '../query/paginated-filter';
import type { Projection } from '../query/projection';
import type { CompositeId, RecordData } from '../record/record-utils';
import {
  type ActionSchema,
  type AggregationCapabilities,
  type CollectionSchema,
  createCollectionSchema,
} from '../schema/collection-schema';
import type { FieldSchema } from '../schema/field-schema';

/**
 * A starting point for data-source collections: holds the schema and gives protected helpers to
 * build it; subclasses implement `list`, `create`, `update`, `delete` and `aggregate`.
 *
 * @example
 * class BookCollection extends BaseCollection {
 *   constructor(dataSource: DataSource) {
 *     super('books', dataSource);
 *     this.addField('id', { type: 'Column', columnType: 'Number', isPrimaryKey: true, filterOperators: new Set(['Equal', 'In']) });
 *   }
 *   // list, create, update, delete, aggregate…
 * }
 */
export abstract class BaseCollection implements Collection {
  readonly schema: CollectionSchema = createCollectionSchema();

  constructor(
    readonly name: string,
    readonly dataSource: DataSource,
    readonly nativeDriver: unknown = null,
  ) {}

  /** Adds a field; names must be unique and must not contain `:`. */
  protected addField(name: string, schema: FieldSchema): void {
    if (this.schema.fields[name]) throw new AlreadyDefinedFieldError(this.name, name);
    if (name.includes(':')) {
      throw new ValidationError(
        `Invalid field name '${this.name}.${name}': field names must not contain ':'.`,
      );
    }
    this.schema.fields[name] = schema;
  }

  /** Adds several fields. */
  protected addFields(fields: Record<string, FieldSchema>): void {
    for (const [name, schema] of Object.entries(fields)) this.addField(name, schema);
  }

  /** Declares an action (its behaviour is implemented by overriding `execute`/`getForm`). */
  protected addAction(name: string, schema: ActionSchema): void {
    if (this.schema.actions[name]) throw new AlreadyDefinedFieldError(this.name, name, 'Action');
    this.schema.actions[name] = schema;
  }

  /** Declares a chart (rendered by overriding `renderChart`). */
  protected addChart(name: string): void {
    if (this.schema.charts.includes(name)) {
      throw new AlreadyDefinedFieldError(this.name, name, 'Chart');
    }
    this.schema.charts.push(name);
  }

  /** Declares segment names. */
  protected addSegments(names: string[]): void {
    this.schema.segments.push(...names);
  }

  /** Makes list pagination able to count records. */
  protected enableCount(): void {
    this.schema.countable = true;
  }

  /** Declares that `filter.search` is handled natively. */
  protected enableSearch(): void {
    this.schema.searchable = true;
  }

  /** Declares the aggregations supported natively. */
  protected setAggregationCapabilities(capabilities: AggregationCapabilities): void {
    this.schema.aggregationCapabilities = capabilities;
  }

  abstract list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]>;
  abstract create(caller: Caller, data: RecordData[]): Promise<RecordData[]>;
  abstract update(caller: Caller, filter: Filter, patch: RecordData): Promise<void>;
  abstract delete(caller: Caller, filter: Filter): Promise<void>;
  abstract aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]>;

  async execute(
    _caller: Caller,
    name: string,
    _formValues: RecordData,
    _filter?: Filter,
  ): Promise<ActionResult> {
    throw new UnprocessableError(
      `Action '${name}' is not implemented on collection '${this.name}'.`,
    );
  }

  async getForm(
    _caller: Caller,
    _name: string,
    _formValues?: RecordData,
    _filter?: Filter,
    _metas?: GetFormMetas,
  ): Promise<ActionFormElement[]> {
    return [];
  }

  async renderChart(
    _caller: Caller,
    name: string,
    _recordId: CompositeId,
    _parameters?: Record<string, unknown>,
  ): Promise<Chart> {
    throw new UnprocessableError(
      `Chart '${name}' is not implemented on collection '${this.name}'.`,
    );
  }
}
