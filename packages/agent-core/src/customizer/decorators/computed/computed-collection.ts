import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import { aggregateRecords } from '../../../toolkit/evaluator/aggregate-records';
import { stableStringify } from '../../../toolkit/evaluator/comparable-value';
import type { AggregateResult, Aggregation } from '../../../toolkit/query/aggregation';
import type { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import type { Projection } from '../../../toolkit/query/projection';
import { type RecordData, getFieldValue, unflattener } from '../../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import { resolveColumnPath, validateFieldName } from '../../../toolkit/validation/field-path';
import { CollectionCustomizationContext } from '../../context/customization-context';
import { CollectionDecorator } from '../collection-decorator';
import type { DataSourceDecorator } from '../data-source-decorator';
import type { ComputedDefinition } from './computed-definition';

/**
 * Layers 16 and 21 — computed fields. Reading a computed field asks the layer below for its
 * dependencies (recursively, through relations), then calls `getValues` once per request with
 * the deduplicated partial records; computed fields depending on others are resolved in
 * dependency order, independent ones concurrently. Aggregations touching a computed field are
 * done in memory.
 */
export class ComputedCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: DataSourceDecorator<ComputedCollectionDecorator>;
  private readonly computeds: Record<string, ComputedDefinition> = {};

  /** The computed definition of a field path at this layer, if it is one. */
  getComputed(path: string): ComputedDefinition | undefined {
    const [head, ...rest] = path.split(':');
    if (rest.length === 0) return this.computeds[path];
    const field = this.schema.fields[head as string];
    if (field?.type !== 'ManyToOne' && field?.type !== 'OneToOne') return undefined;
    return this.dataSource.getCollection(field.foreignCollection).getComputed(rest.join(':'));
  }

  /** Registers a computed field after validating its name and dependencies. */
  registerComputed(name: string, definition: ComputedDefinition): void {
    validateFieldName(this.name, name);
    if (this.schema.fields[name]) {
      throw new ValidationError(
        `Field '${this.name}.${name}' is already defined; choose another name for the computed field.`,
      );
    }
    if (!Array.isArray(definition.dependencies) || definition.dependencies.length === 0) {
      throw new ValidationError(
        `Computed field '${this.name}.${name}' must have at least one dependency.`,
      );
    }
    if (typeof definition.getValues !== 'function') {
      throw new ValidationError(
        `Computed field '${this.name}.${name}' needs a getValues function.`,
      );
    }
    for (const dependency of definition.dependencies) resolveColumnPath(this, dependency);
    this.computeds[name] = { ...definition, columnType: definition.columnType };
    this.markSchemaAsDirty();
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields = { ...childSchema.fields };
    for (const [name, computed] of Object.entries(this.computeds)) {
      fields[name] = {
        type: 'Column',
        columnType: computed.columnType,
        defaultValue: computed.defaultValue,
        enumValues: computed.enumValues,
        ...(computed.currency ? { currency: computed.currency } : {}),
        filterOperators: new Set(),
        isGroupable: true,
        isPrimaryKey: false,
        isReadOnly: true,
        isSortable: false,
      };
    }
    return { ...childSchema, fields };
  }

  /** The child paths needed to read `path` (computed fields replaced by their dependencies). */
  private rewritePath(path: string): string[] {
    const computed = this.getComputed(path);
    if (!computed) return [path];
    const prefix = path.includes(':') ? path.slice(0, path.lastIndexOf(':') + 1) : '';
    return computed.dependencies.flatMap((dependency) =>
      this.rewritePath(`${prefix}${dependency}`),
    );
  }

  /** Whether a collection of this layer has computed fields (paths may reach them by relation). */
  private get layerHasComputeds(): boolean {
    return this.dataSource.fact('computeds', (collections) =>
      collections.some((collection) => Object.keys(collection.computeds).length > 0),
    );
  }

  /** Lists go straight down when no collection of this layer has computed fields. */
  override list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    if (!this.layerHasComputeds) return this.readTarget.list(caller, filter, projection);
    return this.listComputed(caller, filter, projection);
  }

  private async listComputed(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    const childProjection = projection.replace((path) => this.rewritePath(path));
    const records = await this.readTarget.list(caller, filter, childProjection);
    if (childProjection.equals(projection)) return records;
    return this.computeFromRecords(caller, records, childProjection, projection);
  }

  override async aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    if (!aggregation.projection.some((path) => this.getComputed(path))) {
      return super.aggregate(caller, filter, aggregation, limit);
    }
    const records = await this.list(
      caller,
      new PaginatedFilter({ ...filter }),
      aggregation.projection,
    );
    return aggregateRecords(records, aggregation, { timezone: caller.timezone }, limit);
  }

  private async computeFromRecords(
    caller: Caller,
    records: RecordData[],
    childProjection: Projection,
    projection: Projection,
  ): Promise<RecordData[]> {
    const values = new Map<string, unknown[]>();
    for (const path of childProjection) {
      values.set(
        path,
        records.map((record) => getFieldValue(record, path)),
      );
    }
    const pending = new Map<string, Promise<void>>();

    const resolve = (path: string): Promise<void> => {
      if (values.has(path)) return Promise.resolve();
      let promise = pending.get(path);
      if (!promise) {
        promise = this.computeField(caller, path, records, values, resolve);
        pending.set(path, promise);
      }
      return promise;
    };
    await Promise.all(projection.map(resolve));

    const build = unflattener(projection);
    const relations = Object.keys(projection.relations);
    const columns = projection.map((path) => values.get(path) ?? []);
    return records.map((record, index) => {
      const result = build(columns.map((column) => column[index]));
      // A null relation stays null rather than an object of nulls.
      for (const relation of relations) {
        if (getFieldValue(record, relation) === null) result[relation] = null;
      }
      return result;
    });
  }

  private async computeField(
    caller: Caller,
    path: string,
    records: RecordData[],
    values: Map<string, unknown[]>,
    resolve: (path: string) => Promise<void>,
  ): Promise<void> {
    const computed = this.getComputed(path) as ComputedDefinition;
    const prefix = path.includes(':') ? path.slice(0, path.lastIndexOf(':')) : '';
    const dependencies = computed.dependencies.map((dep) => (prefix ? `${prefix}:${dep}` : dep));
    await Promise.all(dependencies.map(resolve));

    const owner = prefix ? this.collectionAt(prefix) : this;
    const unique = new Map<string, { partial: RecordData; indexes: number[] }>();
    const build = unflattener(computed.dependencies);
    const columns = dependencies.map((dep) => values.get(dep) ?? []);
    records.forEach((record, index) => {
      if (
        prefix &&
        (getFieldValue(record, prefix) === null || getFieldValue(record, prefix) === undefined)
      )
        return;
      const row = columns.map((column) => column[index]);
      const partial = build(row);
      const key = row
        .map((value) => {
          return value !== null && typeof value === 'object'
            ? stableStringify(value)
            : `${typeof value}:${String(value)}`;
        })
        .join('\u0001');
      const entry = unique.get(key) ?? { partial, indexes: [] };
      entry.indexes.push(index);
      unique.set(key, entry);
    });

    const entries = [...unique.values()];
    const context = new CollectionCustomizationContext(owner, caller);
    const computedValues = entries.length
      ? await Promise.all(
          await computed.getValues(
            entries.map((entry) => entry.partial),
            context,
          ),
        )
      : [];
    if (!Array.isArray(computedValues) || computedValues.length !== entries.length) {
      throw new ValidationError(
        `The getValues of computed field '${owner.name}.${path.split(':').pop()}' must return an array of ${entries.length} value(s), one per record.`,
      );
    }
    const column: unknown[] = records.map(() => null);
    entries.forEach((entry, i) => {
      for (const index of entry.indexes) column[index] = computedValues[i];
    });
    values.set(path, column);
  }

  private collectionAt(prefix: string): ComputedCollectionDecorator {
    return prefix.split(':').reduce<ComputedCollectionDecorator>((collection, relation) => {
      const field = collection.schema.fields[relation];
      return field?.type === 'ManyToOne' || field?.type === 'OneToOne'
        ? collection.dataSource.getCollection(field.foreignCollection)
        : collection;
    }, this);
  }
}
