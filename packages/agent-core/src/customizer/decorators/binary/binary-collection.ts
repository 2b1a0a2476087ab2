import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import type { AggregateResult, Aggregation } from '../../../toolkit/query/aggregation';
import type { Filter } from '../../../toolkit/query/filter';
import type { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import type { Projection } from '../../../toolkit/query/projection';
import type { RecordData } from '../../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import type { ColumnSchema, ValidationRule } from '../../../toolkit/schema/field-schema';
import { getColumn } from '../../../toolkit/schema/schema-utils';
import { CollectionDecorator } from '../collection-decorator';
import type { DataSourceDecorator } from '../data-source-decorator';

/** How bytes are shown above this layer. */
export type BinaryMode = 'datauri' | 'hex';

const SIGNATURES: [string, string][] = [
  ['89504e47', 'image/png'],
  ['ffd8ff', 'image/jpeg'],
  ['47494638', 'image/gif'],
  ['25504446', 'application/pdf'],
  ['504b0304', 'application/zip'],
];

function toText(bytes: Buffer, mode: BinaryMode): string {
  if (mode === 'hex') return bytes.toString('hex');
  const hex = bytes.subarray(0, 4).toString('hex');
  const mime =
    SIGNATURES.find(([signature]) => hex.startsWith(signature))?.[1] ?? 'application/octet-stream';
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

function toBytes(value: unknown, mode: BinaryMode, label: string): unknown {
  if (value === null || value === undefined || Buffer.isBuffer(value)) return value;
  if (typeof value !== 'string')
    throw new ValidationError(
      `"${label}" expects a ${mode === 'hex' ? 'hex' : 'data URI'} string, got ${JSON.stringify(value)}.`,
    );
  if (mode === 'hex') {
    if (!/^([0-9a-f]{2})*$/i.test(value))
      throw new ValidationError(`"${label}" expects a hex string, got ${JSON.stringify(value)}.`);
    return Buffer.from(value, 'hex');
  }
  const match = /^data:[^;,]*(;[^,]*)?,(.*)$/s.exec(value);
  if (!match)
    throw new ValidationError(
      `"${label}" expects a data URI (data:<mime>;base64,<data>), got ${JSON.stringify(value.slice(0, 40))}.`,
    );
  return Buffer.from(match[2] ?? '', 'base64');
}

/**
 * Whether any collection of each data source of this layer has a binary column, at a schema
 * version: while none has, records, filters and aggregation groups pass through untouched.
 */
const binaryPresence = new WeakMap<object, { version: number; present: boolean }>();

/**
 * Layer 3 — binary columns are exposed as strings: hex (default for primary and foreign keys)
 * or data URIs (default otherwise); values are converted in records, filters and writes.
 */
export class BinaryCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: DataSourceDecorator<BinaryCollectionDecorator>;
  private readonly modes = new Map<string, BinaryMode>();

  setBinaryMode(name: string, mode: BinaryMode): void {
    if (mode !== 'datauri' && mode !== 'hex')
      throw new ValidationError(
        `Invalid binary mode '${String(mode)}' for '${this.name}.${name}': use 'datauri' or 'hex'.`,
      );
    const column = getColumn(this.name, this.childCollection.schema, name);
    if (column.columnType !== 'Binary')
      throw new ValidationError(
        `Expected a binary field: '${this.name}.${name}' is ${JSON.stringify(column.columnType)}.`,
      );
    this.modes.set(name, mode);
    this.modeCache = null;
    this.markSchemaAsDirty();
  }

  private modeCache: { schema: CollectionSchema; modes: Map<string, BinaryMode> } | null = null;

  /** The modes of the binary columns (computed once per child schema). */
  private binaryModes(): Map<string, BinaryMode> {
    const schema = this.childCollection.schema;
    if (this.modeCache?.schema !== schema) {
      const modes = new Map<string, BinaryMode>();
      const foreignKeys = new Set(
        Object.values(schema.fields).flatMap((f) => (f.type === 'ManyToOne' ? [f.foreignKey] : [])),
      );
      for (const [name, field] of Object.entries(schema.fields)) {
        if (field.type !== 'Column' || field.columnType !== 'Binary') continue;
        const fallback: BinaryMode =
          field.isPrimaryKey || foreignKeys.has(name) ? 'hex' : 'datauri';
        modes.set(name, this.modes.get(name) ?? fallback);
      }
      this.modeCache = { schema, modes };
    }
    return this.modeCache.modes;
  }

  /** Whether a collection of this data source (so, any relation path) has a binary column. */
  private get dataSourceHasBinary(): boolean {
    const version = this.dataSource.clock.version;
    let entry = binaryPresence.get(this.dataSource);
    if (entry?.version !== version) {
      const present = this.dataSource.collections.some((c) => c.binaryModes().size > 0);
      entry = { version, present };
      binaryPresence.set(this.dataSource, entry);
    }
    return entry.present;
  }

  /** The mode of a binary column, or null for other fields. */
  modeOf(name: string): BinaryMode | null {
    return this.binaryModes().get(name) ?? null;
  }

  private modeOfPath(path: string): { mode: BinaryMode | null } {
    const [head, ...rest] = path.split(':') as [string, ...string[]];
    if (rest.length === 0) return { mode: this.modeOf(head) };
    const field = this.childCollection.schema.fields[head];
    if (field?.type !== 'ManyToOne' && field?.type !== 'OneToOne') return { mode: null };
    return this.dataSource.getCollection(field.foreignCollection).modeOfPath(rest.join(':'));
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields = { ...childSchema.fields };
    for (const [name, field] of Object.entries(childSchema.fields)) {
      const mode = this.modeOf(name);
      if (!mode) continue;
      const column = field as ColumnSchema;
      const validation: ValidationRule[] = (column.validation ?? [])
        .map((rule) =>
          mode === 'hex' &&
          (rule.operator === 'LongerThan' || rule.operator === 'ShorterThan') &&
          typeof rule.value === 'number'
            ? { ...rule, value: rule.value * 2 }
            : rule,
        )
        .filter((rule) => ['Present', 'LongerThan', 'ShorterThan'].includes(rule.operator));
      validation.push({
        operator: 'Match',
        value: mode === 'hex' ? /^[0-9a-f]+$/ : /^data:.*;base64,.*/,
      });
      fields[name] = { ...column, columnType: 'String', validation };
    }
    return { ...childSchema, fields };
  }

  /** Lists go straight down when no column of the data source is binary. */
  /** Lists go straight down when no collection of the data source has binary columns. */
  override list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    if (!this.dataSourceHasBinary) return this.readTarget.list(caller, filter, projection);
    return this.listConverted(caller, filter, projection);
  }

  private async listConverted(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    const records = await this.readTarget.list(
      caller,
      await this.convertFilter(filter),
      projection,
    );
    return records.map((record) => this.convertRecord(record, 'read'));
  }

  override async create(caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    const created = await super.create(
      caller,
      data.map((record) => this.convertRecord(record, 'write')),
    );
    return created.map((record) => this.convertRecord(record, 'read'));
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    return super.update(
      caller,
      await this.convertFilter(filter),
      this.convertRecord(patch, 'write'),
    );
  }

  override async delete(caller: Caller, filter: Filter): Promise<void> {
    return super.delete(caller, await this.convertFilter(filter));
  }

  override async aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    // As lists: nothing to convert when no collection of the data source has binary columns.
    if (!this.dataSourceHasBinary) return super.aggregate(caller, filter, aggregation, limit);
    const rows = await super.aggregate(
      caller,
      await this.convertFilter(filter),
      aggregation,
      limit,
    );
    return rows.map((row) => ({
      ...row,
      group: Object.fromEntries(
        Object.entries(row.group).map(([path, value]) => {
          const { mode } = this.modeOfPath(path);
          return [path, mode && Buffer.isBuffer(value) ? toText(value, mode) : value];
        }),
      ),
    }));
  }

  private async convertFilter<F extends Filter>(filter: F): Promise<F> {
    if (!filter.conditionTree) return filter;
    const tree = filter.conditionTree.replaceLeafs((leaf) => {
      const { mode } = this.modeOfPath(leaf.field);
      if (!mode || leaf.value === undefined) return leaf;
      const value = Array.isArray(leaf.value)
        ? leaf.value.map((item) => toBytes(item, mode, leaf.field))
        : ['Equal', 'NotEqual'].includes(leaf.operator)
          ? toBytes(leaf.value, mode, leaf.field)
          : leaf.value;
      return leaf.override({ value });
    });
    return filter.override({ conditionTree: tree }) as F;
  }

  private convertRecord(record: RecordData, direction: 'read' | 'write'): RecordData {
    const hasBinary = this.binaryModes().size > 0;
    if (!hasBinary && !Object.values(record).some((value) => value && typeof value === 'object')) {
      return record;
    }
    const converted: RecordData = { ...record };
    for (const [key, value] of Object.entries(record)) {
      const field = this.childCollection.schema.fields[key];
      const mode = this.modeOf(key);
      if (mode) {
        converted[key] =
          direction === 'read'
            ? Buffer.isBuffer(value)
              ? toText(value, mode)
              : value
            : toBytes(value, mode, `${this.name}.${key}`);
      } else if (
        (field?.type === 'ManyToOne' || field?.type === 'OneToOne') &&
        value &&
        typeof value === 'object'
      ) {
        converted[key] = this.dataSource
          .getCollection(field.foreignCollection)
          .convertRecord(value as RecordData, direction);
      }
    }
    return converted;
  }
}
