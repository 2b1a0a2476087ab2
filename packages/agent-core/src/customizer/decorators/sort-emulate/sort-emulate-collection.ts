import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import { sortRecords } from '../../../toolkit/evaluator/sort-records';
import { ConditionTreeFactory } from '../../../toolkit/query/condition-tree/condition-tree-factory';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort, type SortClause } from '../../../toolkit/query/sort';
import { type RecordData, getPrimaryKey } from '../../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import type { ColumnSchema } from '../../../toolkit/schema/field-schema';
import { getColumn, getPrimaryKeys } from '../../../toolkit/schema/schema-utils';
import { columnTypeResolver } from '../../../toolkit/validation/field-path';
import { CollectionDecorator } from '../collection-decorator';
import type { DataSourceDecorator } from '../data-source-decorator';

/**
 * Layer 11 — `emulateFieldSorting`, `replaceFieldSorting`, `disableFieldSorting`. A sort using
 * an emulated field lists every matching record (sort fields + primary keys), sorts in memory,
 * applies the page, then reads those records by id with the requested projection.
 */
export class SortEmulateCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: DataSourceDecorator<SortEmulateCollectionDecorator>;
  /** field → replacement clauses (`null`: emulate in memory; `[]`: disabled). */
  private readonly sorts = new Map<string, SortClause[] | null>();
  private readonly disabled = new Set<string>();

  emulateFieldSorting(name: string): void {
    this.checkField(name);
    this.sorts.set(name, null);
    this.markSchemaAsDirty();
  }

  replaceFieldSorting(name: string, clauses: SortClause[] | null | undefined): void {
    if (!clauses)
      throw new ValidationError(
        `A new sorting method should be provided to replace field sorting ('${this.name}.${name}').`,
      );
    this.checkField(name);
    this.sorts.set(name, clauses);
    this.markSchemaAsDirty();
  }

  disableFieldSorting(name: string): void {
    this.checkField(name);
    this.disabled.add(name);
    this.markSchemaAsDirty();
  }

  private checkField(name: string): void {
    getColumn(this.name, this.childCollection.schema, name);
  }

  /** Whether a sort path needs in-memory sorting at this layer. */
  isEmulated(path: string): boolean {
    const [head, ...rest] = path.split(':') as [string, ...string[]];
    if (rest.length === 0) return this.sorts.has(head) && this.sorts.get(head) === null;
    const relation = this.schema.fields[head];
    if (relation?.type !== 'ManyToOne' && relation?.type !== 'OneToOne') return false;
    return this.dataSource.getCollection(relation.foreignCollection).isEmulated(rest.join(':'));
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields = { ...childSchema.fields };
    for (const name of this.sorts.keys())
      fields[name] = { ...(fields[name] as ColumnSchema), isSortable: true };
    for (const name of this.disabled)
      fields[name] = { ...(fields[name] as ColumnSchema), isSortable: false };
    return { ...childSchema, fields };
  }

  private replaceClauses(sort: Sort, seen: string[] = []): Sort {
    return sort.replaceClauses((clause) => {
      const replacement = this.sorts.get(clause.field);
      if (!replacement) return clause;
      if (seen.includes(clause.field)) {
        throw new ValidationError(
          `Sort replacement cycle on '${this.name}': ${[...seen, clause.field].join(' -> ')}`,
        );
      }
      const clauses = clause.ascending
        ? new Sort(...replacement)
        : new Sort(...replacement).inverse();
      return this.replaceClauses(clauses, [...seen, clause.field]);
    });
  }

  /** Whether a collection of this layer emulates or replaces the sorting of a field. */
  private get layerSortsAnything(): boolean {
    return this.dataSource.fact('sorts', (collections) =>
      collections.some((collection) => collection.sorts.size > 0),
    );
  }

  /** Lists go straight down without a sort, or when no collection of this layer emulates one. */
  override list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    if (!filter.sort || !this.layerSortsAnything) {
      return this.readTarget.list(caller, filter, projection);
    }
    return this.listSorted(caller, filter, projection);
  }

  private async listSorted(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    const sort = filter.sort ? this.replaceClauses(filter.sort) : null;
    const refined = sort ? filter.override({ sort }) : filter;
    if (!sort || !sort.some((clause) => this.isEmulated(clause.field))) {
      return this.readTarget.list(caller, refined, projection);
    }
    const pks = getPrimaryKeys(this.schema);
    const all = await this.readTarget.list(
      caller,
      refined.override({ sort: null, page: null }),
      new Projection(...pks).union(sort.projection),
    );
    const sorted = sortRecords(all, sort, columnTypeResolver(this), caller.timezone);
    const page = refined.page ? refined.page.apply(sorted) : sorted;
    if (page.length === 0) return [];
    const records = await this.readTarget.list(
      caller,
      new PaginatedFilter({ conditionTree: ConditionTreeFactory.matchRecords(this.schema, page) }),
      projection.union(pks),
    );
    const byId = new Map(
      records.map((record) => [JSON.stringify(getPrimaryKey(this.schema, record)), record]),
    );
    return projection.apply(
      page
        .map((record) => byId.get(JSON.stringify(getPrimaryKey(this.schema, record))))
        .filter((r): r is RecordData => !!r),
    );
  }
}
