import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import type { Collection } from '../../../toolkit/interfaces/collection';
import type { Filter } from '../../../toolkit/query/filter';
import type { RecordData } from '../../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import type { ColumnSchema } from '../../../toolkit/schema/field-schema';
import { getField } from '../../../toolkit/schema/schema-utils';
import { CollectionCustomizationContext } from '../../context/customization-context';
import { CollectionDecorator } from '../collection-decorator';
import type { DataSourceDecorator } from '../data-source-decorator';

/** Context of a `replaceFieldWriting` handler. */
export class WriteCustomizationContext extends CollectionCustomizationContext {
  readonly record: Readonly<RecordData>;

  constructor(
    collection: Collection,
    caller: Caller,
    readonly action: 'create' | 'update',
    record: RecordData,
    readonly filter?: Filter,
  ) {
    super(collection, caller);
    this.record = Object.freeze({ ...record });
  }
}

/** Turns a written value into a patch of other fields (or nothing). */
export type WriteDefinition = (
  value: unknown,
  context: WriteCustomizationContext,
) => RecordData | void | null | Promise<RecordData | void | null>;

function isPlainObject(value: unknown): value is RecordData {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !Buffer.isBuffer(value)
  );
}

function merge(target: RecordData, patch: RecordData): RecordData {
  for (const [key, value] of Object.entries(patch)) {
    const existing = target[key];
    if (isPlainObject(existing) && isPlainObject(value))
      target[key] = merge({ ...existing }, value);
    else if (key in target && JSON.stringify(existing) !== JSON.stringify(value)) {
      throw new ValidationError(
        `Conflict value on the field "${key}". It received several values.`,
      );
    } else target[key] = value;
  }
  return target;
}

/**
 * Layer 6 (first part) — `replaceFieldWriting`: a written field is turned into a patch by its
 * handler; other column keys of that patch go through their own handlers (cycles are refused),
 * nested to-one objects through the related collection's handlers; patches are deep-merged.
 */
export class WriteReplaceCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: DataSourceDecorator<WriteReplaceCollectionDecorator>;
  private readonly handlers = new Map<string, WriteDefinition>();

  replaceFieldWriting(name: string, definition: WriteDefinition | null | undefined): void {
    if (!definition) {
      throw new ValidationError(
        `A new writing method should be provided to replace field writing ('${this.name}.${name}').`,
      );
    }
    getField(this.name, this.childCollection.schema, name);
    this.handlers.set(name, definition);
    this.markSchemaAsDirty();
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields = { ...childSchema.fields };
    for (const name of this.handlers.keys()) {
      fields[name] = { ...(fields[name] as ColumnSchema), isReadOnly: false };
    }
    return { ...childSchema, fields };
  }

  override async create(caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    const rewritten = await Promise.all(
      data.map((record) => this.rewritePatch(caller, 'create', record, record)),
    );
    return this.childCollection.create(caller, rewritten);
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    const rewritten = await this.rewritePatch(caller, 'update', patch, patch, filter);
    return this.childCollection.update(caller, filter, rewritten);
  }

  /** The patch with every handled field replaced by what its handler returns. */
  async rewritePatch(
    caller: Caller,
    action: 'create' | 'update',
    patch: RecordData,
    whole: RecordData,
    filter?: Filter,
    used: string[] = [],
  ): Promise<RecordData> {
    const parts = await Promise.all(
      Object.entries(patch).map(([key, value]) =>
        this.rewriteKey(caller, action, key, value, whole, filter, used),
      ),
    );
    return parts.reduce((merged, part) => merge(merged, part), {});
  }

  private async rewriteKey(
    caller: Caller,
    action: 'create' | 'update',
    key: string,
    value: unknown,
    whole: RecordData,
    filter: Filter | undefined,
    used: string[],
  ): Promise<RecordData> {
    if (used.includes(key))
      throw new ValidationError(`Cycle detected: ${[...used, key].join(' -> ')}.`);
    const field = this.schema.fields[key];
    const handler = this.handlers.get(key);
    if (field?.type === 'Column' && handler) {
      const context = new WriteCustomizationContext(this, caller, action, whole, filter);
      const result = (await handler(value, context)) ?? {};
      if (!isPlainObject(result)) {
        throw new ValidationError(
          `The write handler of ${key} should return an object or nothing.`,
        );
      }
      const { [key]: own, ...others } = result;
      const rewritten = await this.rewritePatch(caller, action, others, whole, filter, [
        ...used,
        key,
      ]);
      return key in result ? merge({ [key]: own }, rewritten) : rewritten;
    }
    if ((field?.type === 'ManyToOne' || field?.type === 'OneToOne') && isPlainObject(value)) {
      const foreign = this.dataSource.getCollection(field.foreignCollection);
      return { [key]: await foreign.rewritePatch(caller, action, value, value, undefined, used) };
    }
    return { [key]: value };
  }
}
