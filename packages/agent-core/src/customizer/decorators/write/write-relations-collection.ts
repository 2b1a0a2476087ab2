import type { Caller } from '../../../toolkit/caller';
import { ConditionTreeFactory } from '../../../toolkit/query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import type { RecordData } from '../../../toolkit/record/record-utils';
import type { ManyToOneSchema, OneToOneSchema } from '../../../toolkit/schema/field-schema';
import { getPrimaryKeys } from '../../../toolkit/schema/schema-utils';
import { CollectionDecorator } from '../collection-decorator';
import type { DataSourceDecorator } from '../data-source-decorator';

type ToOne = [string, ManyToOneSchema | OneToOneSchema, RecordData];

/**
 * Layer 6 (second part) — nested writes through ManyToOne / OneToOne relations (`{ author: {
 * name } }`), produced by `importField` or custom write handlers.
 */
export class WriteRelationsCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: DataSourceDecorator<WriteRelationsCollectionDecorator>;

  private split(record: RecordData): { columns: RecordData; relations: ToOne[] } {
    const columns: RecordData = {};
    const relations: ToOne[] = [];
    for (const [key, value] of Object.entries(record)) {
      const field = this.schema.fields[key];
      if (
        (field?.type === 'ManyToOne' || field?.type === 'OneToOne') &&
        value &&
        typeof value === 'object'
      ) {
        relations.push([key, field, value as RecordData]);
      } else columns[key] = value;
    }
    return { columns, relations };
  }

  override async create(caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    const created: RecordData[] = [];
    for (const record of data) {
      const { columns, relations } = this.split(record);
      for (const [, field, nested] of relations) {
        if (field.type !== 'ManyToOne') continue;
        const foreign = this.dataSource.getCollection(field.foreignCollection);
        const key = columns[field.foreignKey];
        if (key === undefined || key === null) {
          const [parent] = await foreign.create(caller, [nested]);
          columns[field.foreignKey] = parent?.[field.foreignKeyTarget];
        } else {
          await foreign.update(
            caller,
            new Filter({
              conditionTree: new ConditionTreeLeaf(field.foreignKeyTarget, 'Equal', key),
            }),
            nested,
          );
        }
      }
      const [parent] = await this.childCollection.create(caller, [columns]);
      for (const [, field, nested] of relations) {
        if (field.type !== 'OneToOne') continue;
        const foreign = this.dataSource.getCollection(field.foreignCollection);
        await foreign.create(caller, [
          { ...nested, [field.originKey]: parent?.[field.originKeyTarget] },
        ]);
      }
      if (parent) created.push(parent);
    }
    return created;
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    const { columns, relations } = this.split(patch);
    if (Object.keys(columns).length > 0 || relations.length === 0) {
      await this.childCollection.update(caller, filter, columns);
    }
    if (relations.length === 0) return;
    const pks = getPrimaryKeys(this.schema);
    const keys = relations.map(([, field]) =>
      field.type === 'ManyToOne' ? field.foreignKey : field.originKeyTarget,
    );
    const records = await this.list(
      caller,
      new PaginatedFilter({ ...filter }),
      new Projection(...pks, ...keys),
    );

    for (const [, field, nested] of relations) {
      const foreign = this.dataSource.getCollection(field.foreignCollection);
      if (field.type === 'ManyToOne') {
        const orphans = records.filter(
          (record) => record[field.foreignKey] === null || record[field.foreignKey] === undefined,
        );
        const linked = [
          ...new Set(
            records.map((r) => r[field.foreignKey]).filter((v) => v !== null && v !== undefined),
          ),
        ];
        if (linked.length) {
          await foreign.update(
            caller,
            new Filter({
              conditionTree: new ConditionTreeLeaf(field.foreignKeyTarget, 'In', linked),
            }),
            nested,
          );
        }
        if (orphans.length) {
          const [created] = await foreign.create(caller, [nested]);
          await this.childCollection.update(
            caller,
            new Filter({ conditionTree: ConditionTreeFactory.matchRecords(this.schema, orphans) }),
            { [field.foreignKey]: created?.[field.foreignKeyTarget] },
          );
        }
      } else {
        const targets = records.map((record) => record[field.originKeyTarget]);
        const existing = await foreign.list(
          caller,
          new PaginatedFilter({
            conditionTree: new ConditionTreeLeaf(field.originKey, 'In', targets),
          }),
          new Projection(field.originKey),
        );
        const withRelated = new Set(existing.map((record) => record[field.originKey]));
        if (withRelated.size) {
          await foreign.update(
            caller,
            new Filter({
              conditionTree: new ConditionTreeLeaf(field.originKey, 'In', [...withRelated]),
            }),
            nested,
          );
        }
        const missing = targets.filter((target) => !withRelated.has(target));
        if (missing.length)
          await foreign.create(
            caller,
            missing.map((target) => ({ ...nested, [field.originKey]: target })),
          );
      }
    }
  }
}
