import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import {
  AlreadyDefinedFieldError,
  MissingColumnError,
} from '../../../toolkit/errors/schema-errors';
import { aggregateRecords } from '../../../toolkit/evaluator/aggregate-records';
import type { Collection } from '../../../toolkit/interfaces/collection';
import type { AggregateResult, Aggregation } from '../../../toolkit/query/aggregation';
import type { ConditionTree } from '../../../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import type { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import type { SortClause } from '../../../toolkit/query/sort';
import type { RecordData } from '../../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import { describeColumnType } from '../../../toolkit/schema/column-type';
import type { ColumnSchema, RelationSchema } from '../../../toolkit/schema/field-schema';
import { getPrimaryKeys } from '../../../toolkit/schema/schema-utils';
import { validateFieldName } from '../../../toolkit/validation/field-path';
import { CollectionDecorator } from '../collection-decorator';
import type { DataSourceDecorator } from '../data-source-decorator';

/** A relation as given to the customizer: target keys default to primary keys. */
export type PartialRelation =
  | { type: 'ManyToOne'; foreignCollection: string; foreignKey: string; foreignKeyTarget?: string }
  | {
      type: 'OneToMany' | 'OneToOne';
      foreignCollection: string;
      originKey: string;
      originKeyTarget?: string;
    }
  | {
      type: 'ManyToMany';
      foreignCollection: string;
      throughCollection: string;
      originKey: string;
      foreignKey: string;
      originKeyTarget?: string;
      foreignKeyTarget?: string;
    };

const isPresent = (value: unknown) => value !== null && value !== undefined && !Number.isNaN(value);

/**
 * Layer 18 — relations added by the customizer. Reading `rel:field` fetches the related records
 * in one query per relation (`target In [keys]`); filtering on `rel:field` queries the related
 * collection and rewrites to `key In [values]`; sorting on `rel:field` sorts by the key;
 * aggregations using such paths are done in memory.
 */
export class RelationCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: DataSourceDecorator<RelationCollectionDecorator>;
  private readonly relations: Record<string, RelationSchema> = {};

  /** Adds a relation after checking collections, keys and key types. */
  addRelation(name: string, partial: PartialRelation): void {
    validateFieldName(this.name, name);
    if (this.schema.fields[name]) throw new AlreadyDefinedFieldError(this.name, name);
    const relation = this.complete(partial);
    this.check(relation);
    this.relations[name] = relation;
    this.markSchemaAsDirty();
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    return { ...childSchema, fields: { ...childSchema.fields, ...this.relations } };
  }

  /** Whether a collection of this layer has relations added by the customizer. */
  private get layerHasRelations(): boolean {
    return this.dataSource.fact('relations', (collections) =>
      collections.some((collection) => Object.keys(collection.relations).length > 0),
    );
  }

  /**
   * Lists go straight down when no collection of this layer has relations: filters, sorts and
   * paths are then all native.
   */
  override list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    if (!this.layerHasRelations) return this.readTarget.list(caller, filter, projection);
    return this.listRelated(caller, filter, projection);
  }

  private async listRelated(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    const refined = await this.refineFilter(caller, filter);
    const childProjection = projection.replace((path) => this.rewritePath(path));
    const records = await this.readTarget.list(caller, refined, childProjection);
    if (childProjection.equals(projection)) return records;
    await this.reprojectInPlace(caller, records, projection);
    return projection.apply(records);
  }

  override async aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    if (aggregation.projection.every((path) => this.rewritePath(path).includes(path))) {
      return super.aggregate(caller, filter, aggregation, limit);
    }
    const records = await this.list(
      caller,
      new PaginatedFilter({ ...filter }),
      aggregation.projection,
    );
    return aggregateRecords(records, aggregation, { timezone: caller.timezone }, limit);
  }

  /** Filters are rewritten only where this layer has relations. */
  protected override keepsFilter(_filter: Filter): boolean {
    return !this.layerHasRelations;
  }

  protected override async refineFilter<F extends Filter | undefined>(
    caller: Caller,
    filter: F,
  ): Promise<F> {
    if (!filter || this.keepsFilter(filter)) return filter;
    const conditionTree = filter.conditionTree
      ? await filter.conditionTree.replaceLeafsAsync((leaf) => this.rewriteLeaf(caller, leaf))
      : null;
    const sort =
      filter instanceof PaginatedFilter && filter.sort
        ? filter.sort.replaceClauses((clause) => this.rewriteSortClause(clause))
        : undefined;
    return (
      sort
        ? (filter as PaginatedFilter).override({ conditionTree, sort })
        : filter.override({ conditionTree })
    ) as F;
  }

  private isEmulated(name: string): boolean {
    return name in this.relations;
  }

  private foreign(name: string): RelationCollectionDecorator {
    const field = this.schema.fields[name] as RelationSchema;
    return this.dataSource.getCollection(field.foreignCollection);
  }

  /** Child paths needed to read `path`. */
  rewritePath(path: string): string[] {
    const [head, ...rest] = path.split(':') as [string, ...string[]];
    if (rest.length === 0) return [path];
    const relation = this.schema.fields[head];
    if (this.isEmulated(head)) {
      if (relation?.type === 'ManyToOne') return [relation.foreignKey];
      if (relation?.type === 'OneToOne') return [relation.originKeyTarget];
    }
    if (relation?.type !== 'ManyToOne' && relation?.type !== 'OneToOne') return [path];
    return this.foreign(head)
      .rewritePath(rest.join(':'))
      .map((sub) => `${head}:${sub}`);
  }

  /** Fills emulated relations of `records` (and of their native related records). */
  private async reprojectInPlace(
    caller: Caller,
    records: RecordData[],
    projection: Projection,
  ): Promise<void> {
    await Promise.all(
      Object.entries(projection.relations).map(async ([name, sub]) => {
        const field = this.schema.fields[name];
        const foreign = this.foreign(name);
        if (this.isEmulated(name) && (field?.type === 'ManyToOne' || field?.type === 'OneToOne')) {
          const [ownKey, targetKey] =
            field.type === 'ManyToOne'
              ? [field.foreignKey, field.foreignKeyTarget]
              : [field.originKeyTarget, field.originKey];
          const keys = [...new Set(records.map((record) => record[ownKey]).filter(isPresent))];
          const related = keys.length
            ? await foreign.list(
                caller,
                new PaginatedFilter({
                  conditionTree: new ConditionTreeLeaf(targetKey, 'In', keys),
                }),
                sub.union([targetKey]),
              )
            : [];
          for (const record of records) {
            record[name] =
              related.find((candidate) => candidate[targetKey] === record[ownKey]) ?? null;
          }
        } else {
          const nested = records
            .map((record) => record[name])
            .filter((value): value is RecordData => !!value);
          await foreign.reprojectInPlace(caller, nested, sub);
        }
      }),
    );
  }

  private async rewriteLeaf(
    caller: Caller,
    leaf: ConditionTreeLeaf,
  ): Promise<ConditionTree | null> {
    const [head, ...rest] = leaf.field.split(':') as [string, ...string[]];
    if (rest.length === 0) return leaf;
    const field = this.schema.fields[head];
    if (field?.type !== 'ManyToOne' && field?.type !== 'OneToOne') return leaf;
    const foreign = this.foreign(head);
    const subLeaf = leaf.override({ field: rest.join(':') });
    if (!this.isEmulated(head)) {
      const rewritten = await foreign.rewriteLeaf(caller, subLeaf);
      return rewritten ? rewritten.nest(head) : null;
    }
    const [ownKey, targetKey] =
      field.type === 'ManyToOne'
        ? [field.foreignKey, field.foreignKeyTarget]
        : [field.originKeyTarget, field.originKey];
    const related = await foreign.list(
      caller,
      new PaginatedFilter({ conditionTree: subLeaf }),
      new Projection(targetKey),
    );
    const values = [...new Set(related.map((record) => record[targetKey]).filter(isPresent))];
    return new ConditionTreeLeaf(ownKey, 'In', values);
  }

  private rewriteSortClause(clause: SortClause): SortClause[] {
    const [head, ...rest] = clause.field.split(':') as [string, ...string[]];
    if (rest.length === 0) return [clause];
    const field = this.schema.fields[head];
    if (this.isEmulated(head) && field?.type === 'ManyToOne')
      return [{ ...clause, field: field.foreignKey }];
    if (this.isEmulated(head) && field?.type === 'OneToOne')
      return [{ ...clause, field: field.originKeyTarget }];
    if (field?.type !== 'ManyToOne' && field?.type !== 'OneToOne') return [clause];
    return this.foreign(head)
      .rewriteSortClause({ ...clause, field: rest.join(':') })
      .map((sub) => ({ ...sub, field: `${head}:${sub.field}` }));
  }

  private complete(partial: PartialRelation): RelationSchema {
    const foreign = this.dataSource.getCollection(partial.foreignCollection);
    const firstPk = (collection: Collection) => getPrimaryKeys(collection.schema)[0] ?? 'id';
    switch (partial.type) {
      case 'ManyToOne':
        return { ...partial, foreignKeyTarget: partial.foreignKeyTarget ?? firstPk(foreign) };
      case 'OneToMany':
      case 'OneToOne':
        return { ...partial, originKeyTarget: partial.originKeyTarget ?? firstPk(this) };
      case 'ManyToMany':
        return {
          ...partial,
          originKeyTarget: partial.originKeyTarget ?? firstPk(this),
          foreignKeyTarget: partial.foreignKeyTarget ?? firstPk(foreign),
        };
    }
  }

  private check(relation: RelationSchema): void {
    const foreign = this.dataSource.getCollection(relation.foreignCollection);
    switch (relation.type) {
      case 'ManyToOne':
        return this.checkKeys(this, relation.foreignKey, foreign, relation.foreignKeyTarget);
      case 'OneToMany':
      case 'OneToOne':
        return this.checkKeys(foreign, relation.originKey, this, relation.originKeyTarget);
      case 'ManyToMany': {
        const through = this.dataSource.getCollection(relation.throughCollection);
        this.checkKeys(through, relation.originKey, this, relation.originKeyTarget);
        return this.checkKeys(through, relation.foreignKey, foreign, relation.foreignKeyTarget);
      }
    }
  }

  private checkKeys(
    keyOwner: Collection,
    key: string,
    targetOwner: Collection,
    target: string,
  ): void {
    const keyColumn = column(keyOwner, key);
    const targetColumn = column(targetOwner, target);
    if (describeColumnType(keyColumn.columnType) !== describeColumnType(targetColumn.columnType)) {
      throw new ValidationError(
        `Types from '${keyOwner.name}.${key}' (${describeColumnType(keyColumn.columnType)}) and '${targetOwner.name}.${target}' (${describeColumnType(targetColumn.columnType)}) do not match.`,
      );
    }
  }
}

function column(collection: Collection, name: string): ColumnSchema {
  const field = collection.schema.fields[name];
  if (field?.type !== 'Column') {
    const columns = Object.keys(collection.schema.fields).filter(
      (n) => collection.schema.fields[n]?.type === 'Column',
    );
    throw new MissingColumnError(collection.name, name, columns);
  }
  if (!field.filterOperators?.has('In')) {
    throw new ValidationError(
      `Column does not support the In operator: '${collection.name}.${name}'.`,
    );
  }
  return field;
}
