import { randomUUID } from 'node:crypto';
import { BaseCollection } from '../base/base-collection';
import type { Caller } from '../caller';
import { ValidationError } from '../errors/canopy-error';
import { MissingFieldError } from '../errors/schema-errors';
import { aggregateRecords } from '../evaluator/aggregate-records';
import { compileTree } from '../evaluator/match-record';
import { sortRecords } from '../evaluator/sort-records';
import type { DataSource } from '../interfaces/data-source';
import type { AggregateResult, Aggregation } from '../query/aggregation';
import type { Filter } from '../query/filter';
import type { PaginatedFilter } from '../query/paginated-filter';
import { Projection } from '../query/projection';
import type { Operator } from '../query/operators';
import type { RecordData } from '../record/record-utils';
import { getPrimaryKeys } from '../schema/schema-utils';
import type { ColumnSchema, FieldSchema } from '../schema/field-schema';
import { allowedOperatorsForType } from '../validation/condition-tree-validator';
import { columnTypeResolver } from '../validation/field-path';
import { validateWrittenValue } from '../validation/value-validator';

/** A column of an in-memory collection; `filterOperators` defaults to every operator of its type. */
export type InMemoryColumn = Omit<ColumnSchema, 'filterOperators'> & {
  filterOperators?: Set<Operator>;
};

/** The definition of an in-memory collection: its fields and initial records. */
export interface InMemoryCollectionDefinition {
  fields: Record<string, InMemoryColumn | Exclude<FieldSchema, ColumnSchema>>;
  records?: RecordData[];
  /** Whether list pagination may count (default true). */
  countable?: boolean;
}

function clone<T>(value: T): T {
  if (Buffer.isBuffer(value)) return Buffer.from(value) as T;
  if (Array.isArray(value)) return value.map(clone) as T;
  if (value instanceof Date) return new Date(value) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)])) as T;
  }
  return value;
}

/**
 * A collection holding plain records in memory, supporting every operator, sort, pagination and
 * aggregation natively through the in-memory evaluator; relation paths are followed across the
 * collections of its data source. Meant for tests and prototypes.
 */
export class InMemoryCollection extends BaseCollection {
  /** The stored records (also exposed as `nativeDriver`). */
  readonly records: RecordData[];

  constructor(name: string, dataSource: DataSource, definition: InMemoryCollectionDefinition) {
    const records: RecordData[] = [];
    super(name, dataSource, records);
    this.records = records;
    for (const [field, schema] of Object.entries(definition.fields)) {
      if (schema.type === 'Column') {
        const column = { isSortable: true, ...schema } as ColumnSchema;
        column.filterOperators = new Set(schema.filterOperators ?? allowedOperatorsForType(column));
        this.addField(field, column);
      } else {
        this.addField(field, schema);
      }
    }
    if (definition.countable !== false) this.enableCount();
    for (const record of definition.records ?? []) this.records.push(this.prepare(record));
  }

  override async list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    const matching = this.select(
      caller,
      filter,
      new Projection(...projection).union(filter.sort?.projection),
    );
    const sorted = sortRecords(matching, filter.sort, columnTypeResolver(this), caller.timezone);
    const page = filter.page ? filter.page.apply(sorted) : sorted;
    return clone(new Projection(...projection).apply(page));
  }

  override async create(_caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    const created = data.map((record) => this.prepare(record));
    this.records.push(...created);
    return clone(created);
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    this.checkColumns(patch);
    const targets = new Set(this.select(caller, filter, new Projection()).map((r) => r.__source));
    for (const record of this.records) if (targets.has(record)) Object.assign(record, clone(patch));
  }

  override async delete(caller: Caller, filter: Filter): Promise<void> {
    const targets = new Set(this.select(caller, filter, new Projection()).map((r) => r.__source));
    const kept = this.records.filter((record) => !targets.has(record));
    this.records.splice(0, this.records.length, ...kept);
  }

  override async aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    const records = this.select(caller, filter, aggregation.projection);
    return aggregateRecords(records, aggregation, { timezone: caller.timezone }, limit);
  }

  /** Matching records, joined with the relations used by the filter and `paths`. */
  private select(
    caller: Caller,
    filter: Filter,
    paths: readonly string[],
  ): (RecordData & { __source: RecordData })[] {
    if (filter.search) {
      throw new ValidationError(`Collection '${this.name}' does not support search natively.`);
    }
    const tree = filter.conditionTree;
    const relationPaths = new Projection(...paths).union(tree?.projection);
    const predicate = compileTree(tree, columnTypeResolver(this), { timezone: caller.timezone });
    const join = this.joiner(relationPaths);
    return this.records.map((record) => ({ ...join(record), __source: record })).filter(predicate);
  }

  /** A function nesting, under their relations, the related records needed by `paths`. */
  private joiner(paths: Projection): (record: RecordData) => RecordData {
    const joins = Object.entries(paths.relations).flatMap(([relation, sub]) => {
      const field = this.schema.fields[relation];
      if (field?.type !== 'ManyToOne' && field?.type !== 'OneToOne') return [];
      const foreign = this.dataSource.getCollection(field.foreignCollection) as InMemoryCollection;
      const [ownKey, foreignKey] =
        field.type === 'ManyToOne'
          ? [field.foreignKey, field.foreignKeyTarget]
          : [field.originKeyTarget, field.originKey];
      return [{ relation, foreign, ownKey, foreignKey, join: foreign.joiner(sub) }];
    });
    if (joins.length === 0) return (record) => ({ ...record });
    return (record) => {
      const joined: RecordData = { ...record };
      for (const { relation, foreign, ownKey, foreignKey, join } of joins) {
        const value = record[ownKey];
        const related =
          value === null || value === undefined
            ? undefined
            : foreign.records.find((candidate) => candidate[foreignKey] === value);
        joined[relation] = related ? join(related) : null;
      }
      return joined;
    };
  }

  private checkColumns(record: RecordData): void {
    for (const [key, value] of Object.entries(record)) {
      const field = this.schema.fields[key];
      if (field?.type !== 'Column') {
        throw new MissingFieldError(
          this.name,
          key,
          Object.keys(this.schema.fields).filter((n) => this.schema.fields[n]?.type === 'Column'),
        );
      }
      validateWrittenValue(`${this.name}.${key}`, field, value);
    }
  }

  /** Validates a new record and fills generated primary keys. */
  private prepare(input: RecordData): RecordData {
    this.checkColumns(input);
    const record = clone(input);
    for (const pk of getPrimaryKeys(this.schema)) {
      if (record[pk] !== undefined && record[pk] !== null) continue;
      const { columnType } = this.schema.fields[pk] as ColumnSchema;
      if (columnType === 'Number') {
        record[pk] = this.records.reduce((max, r) => Math.max(max, Number(r[pk]) || 0), 0) + 1;
      } else if (columnType === 'Uuid' || columnType === 'String') {
        record[pk] = randomUUID();
      }
    }
    return record;
  }
}
