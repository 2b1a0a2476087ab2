import type { Caller } from '../../../toolkit/caller';
import { MissingFieldError } from '../../../toolkit/errors/schema-errors';
import type { AggregateResult, Aggregation } from '../../../toolkit/query/aggregation';
import type { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import type { Projection } from '../../../toolkit/query/projection';
import type { RecordData } from '../../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import type { FieldSchema } from '../../../toolkit/schema/field-schema';
import { validateFieldName } from '../../../toolkit/validation/field-path';
import { carryValidated } from '../../../toolkit/validation/validated';
import { CollectionDecorator } from '../collection-decorator';
import type { DataSourceDecorator } from '../data-source-decorator';

/**
 * Number of renamed fields over all the collections of each data source of this layer: while it
 * is 0, every translation is the identity and lists, filters and records pass through untouched.
 */
const renamedFieldCounts = new WeakMap<object, number>();

/**
 * Layer 1 — `renameField`: the top of the stack, so customization code below always uses
 * original names. Schemas, records, filters, sorts, projections and aggregation groups are
 * translated in both directions; relation keys pointing to renamed fields follow.
 */
export class RenameFieldCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: DataSourceDecorator<RenameFieldCollectionDecorator>;
  /** original name → exposed name */
  private readonly toExposed = new Map<string, string>();

  renameField(current: string, newName: string): void {
    if (!this.schema.fields[current]) {
      throw new MissingFieldError(this.name, current, Object.keys(this.schema.fields));
    }
    const original = this.toOriginal(current);
    validateFieldName(this.name, newName);
    if (newName === original) this.toExposed.delete(original);
    else this.toExposed.set(original, newName);
    let renamed = 0;
    for (const collection of this.dataSource.collections) {
      renamed += collection.toExposed.size;
      collection.markSchemaAsDirty();
    }
    renamedFieldCounts.set(this.dataSource, renamed);
  }

  /** Whether no collection of this data source renames a field (translations are identities). */
  private get renamesNothing(): boolean {
    return !renamedFieldCounts.get(this.dataSource);
  }

  /** The exposed name of an original field name. */
  fromChild(name: string): string {
    return this.toExposed.get(name) ?? name;
  }

  /** The original name of an exposed field name. */
  toOriginal(name: string): string {
    for (const [original, exposed] of this.toExposed) if (exposed === name) return original;
    if (this.toExposed.has(name)) {
      throw new MissingFieldError(this.name, name, Object.keys(this.schema.fields));
    }
    return name;
  }

  private foreign(name: string): RenameFieldCollectionDecorator {
    return this.dataSource.getCollection(name);
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields: Record<string, FieldSchema> = {};
    for (const [name, field] of Object.entries(childSchema.fields)) {
      let renamed: FieldSchema = field;
      if (field.type === 'ManyToOne') {
        renamed = {
          ...field,
          foreignKey: this.fromChild(field.foreignKey),
          foreignKeyTarget: this.foreign(field.foreignCollection).fromChild(field.foreignKeyTarget),
        };
      } else if (field.type === 'OneToMany' || field.type === 'OneToOne') {
        renamed = {
          ...field,
          originKey: this.foreign(field.foreignCollection).fromChild(field.originKey),
          originKeyTarget: this.fromChild(field.originKeyTarget),
        };
      } else if (field.type === 'ManyToMany') {
        const through = this.foreign(field.throughCollection);
        renamed = {
          ...field,
          originKey: through.fromChild(field.originKey),
          foreignKey: through.fromChild(field.foreignKey),
          originKeyTarget: this.fromChild(field.originKeyTarget),
          foreignKeyTarget: this.foreign(field.foreignCollection).fromChild(field.foreignKeyTarget),
        };
      }
      fields[this.fromChild(name)] = renamed;
    }
    return { ...childSchema, fields };
  }

  /** Translates a path (`author:name`) from exposed to original names, or back. */
  private path(path: string, direction: 'down' | 'up'): string {
    if (this.renamesNothing) return path;
    const [head, ...rest] = path.split(':') as [string, ...string[]];
    const name = direction === 'down' ? this.toOriginal(head) : this.fromChild(head);
    if (rest.length === 0) return name;
    const field = this.childCollection.schema.fields[direction === 'down' ? name : head];
    if (field?.type !== 'ManyToOne' && field?.type !== 'OneToOne') return [name, ...rest].join(':');
    return `${name}:${this.foreign(field.foreignCollection).path(rest.join(':'), direction)}`;
  }

  private record(record: RecordData, direction: 'down' | 'up'): RecordData {
    if (
      this.renamesNothing ||
      (this.toExposed.size === 0 && !Object.values(record).some((v) => v && typeof v === 'object'))
    ) {
      return record;
    }
    const result: RecordData = {};
    for (const [key, value] of Object.entries(record)) {
      const name = direction === 'down' ? this.toOriginal(key) : this.fromChild(key);
      const field = this.childCollection.schema.fields[direction === 'down' ? name : key];
      result[name] =
        (field?.type === 'ManyToOne' || field?.type === 'OneToOne') &&
        value &&
        typeof value === 'object'
          ? this.foreign(field.foreignCollection).record(value as RecordData, direction)
          : value;
    }
    return result;
  }

  private filter<F extends Filter>(filter: F): F {
    if (this.renamesNothing) return filter;
    // Renaming keeps a validated tree or sort valid: what was checked above holds below.
    const conditionTree = carryValidated(
      filter.conditionTree,
      filter.conditionTree?.replaceFields((field) => this.path(field, 'down')) ?? null,
    );
    if (filter instanceof PaginatedFilter && filter.sort) {
      const sort = carryValidated(
        filter.sort,
        filter.sort.replaceClauses((clause) => ({
          ...clause,
          field: this.path(clause.field, 'down'),
        })),
      );
      return filter.override({ conditionTree, sort }) as unknown as F;
    }
    return filter.override({ conditionTree }) as F;
  }

  /** Lists go straight down when this collection renames no field. */
  override list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    if (this.renamesNothing) return this.readTarget.list(caller, filter, projection);
    return this.listRenamed(caller, filter, projection);
  }

  private async listRenamed(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    const records = await this.readTarget.list(
      caller,
      this.filter(filter),
      projection.replace((path) => this.path(path, 'down')),
    );
    return records.map((record) => this.record(record, 'up'));
  }

  override async create(caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    const created = await super.create(
      caller,
      data.map((record) => this.record(record, 'down')),
    );
    return created.map((record) => this.record(record, 'up'));
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    return super.update(caller, this.filter(filter), this.record(patch, 'down'));
  }

  override async delete(caller: Caller, filter: Filter): Promise<void> {
    return super.delete(caller, this.filter(filter));
  }

  override async aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    // As lists: nothing to translate when this collection renames no field.
    if (this.renamesNothing) return super.aggregate(caller, filter, aggregation, limit);
    const rows = await super.aggregate(
      caller,
      this.filter(filter),
      aggregation.replaceFields((f) => this.path(f, 'down')),
      limit,
    );
    return rows.map((row) => ({
      value: row.value,
      group: Object.fromEntries(
        Object.entries(row.group).map(([path, value]) => [this.path(path, 'up'), value]),
      ),
    }));
  }
}
