import type { Caller } from '../../toolkit/caller';
import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { Filter } from '../../toolkit/query/filter';
import { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import { Projection } from '../../toolkit/query/projection';
import {
  type CompositeId,
  type RecordData,
  getFieldValue,
  getPrimaryKey,
} from '../../toolkit/record/record-utils';
import { getPrimaryKeys } from '../../toolkit/schema/schema-utils';
import { validateProjection } from '../../toolkit/validation/query-validators';
import { CollectionCustomizationContext } from '../context/customization-context';

/**
 * Context of an action's `execute` and form functions (spec §2.4): the selected records, the
 * form values and what changed. While a form is computed, `formValues` records which fields are
 * read so that the UI re-asks for the form when they change.
 */
export class ActionContext extends CollectionCustomizationContext {
  readonly formValues: Readonly<RecordData>;
  /** Form fields read by form code (drives `watchChanges`). */
  readonly usedFields = new Set<string>();
  private batch: { fields: Set<string>; promise: Promise<RecordData[]> } | null = null;

  constructor(
    collection: Collection,
    caller: Caller,
    formValues: RecordData,
    /** The selected records. */
    readonly filter: Filter,
    private readonly changedField: string | null = null,
  ) {
    super(collection, caller);
    // The target is the caller's object so that default values filled in later are visible.
    this.formValues = new Proxy(formValues, {
      get: (target, key) => {
        if (typeof key === 'string') this.usedFields.add(key);
        return target[key as string];
      },
      set: () => {
        throw new ValidationError('formValues is readonly');
      },
    });
  }

  /** Whether the form change being processed concerns this field. */
  hasFieldChanged(fieldName: string): boolean {
    this.usedFields.add(fieldName);
    return this.changedField === fieldName;
  }

  /** The selected records with the given fields; calls made in the same tick share one query. */
  async getRecords(fields: string[]): Promise<RecordData[]> {
    validateProjection(this.realCollection, fields);
    if (!this.batch) {
      const fieldSet = new Set<string>();
      const promise = Promise.resolve().then(() => {
        this.batch = null;
        return this.realCollection.list(
          this.caller,
          new PaginatedFilter({ ...this.filter }),
          new Projection(...fieldSet),
        );
      });
      this.batch = { fields: fieldSet, promise };
    }
    for (const field of fields) this.batch.fields.add(field);
    const records = await this.batch.promise;
    return new Projection(...fields).apply(records);
  }

  /** Values of the first primary-key column of the selected records. */
  async getRecordIds(): Promise<Array<string | number>> {
    const ids = await this.getCompositeRecordIds();
    return ids.map((id) => id[0] as string | number);
  }

  /** Composite ids of the selected records. */
  async getCompositeRecordIds(): Promise<CompositeId[]> {
    const records = await this.getRecords(getPrimaryKeys(this.realCollection.schema));
    return records.map((record) => getPrimaryKey(this.realCollection.schema, record));
  }
}

/** Context of a `Single` scope action: one record. */
export class ActionContextSingle extends ActionContext {
  /** The selected record with the given fields. */
  async getRecord(fields: string[]): Promise<RecordData> {
    const [record] = await this.getRecords(fields);
    if (!record)
      throw new ValidationError(
        `Query with filter did not match any records (collection '${this.realCollection.name}').`,
      );
    return record;
  }

  /** The id of the selected record (first primary-key column). */
  async getRecordId(): Promise<string | number> {
    const [id] = await this.getRecordIds();
    if (id === undefined)
      throw new ValidationError(
        `Query with filter did not match any records (collection '${this.realCollection.name}').`,
      );
    return id;
  }

  /** The composite id of the selected record. */
  async getCompositeRecordId(): Promise<CompositeId> {
    const [id] = await this.getCompositeRecordIds();
    if (!id)
      throw new ValidationError(
        `Query with filter did not match any records (collection '${this.realCollection.name}').`,
      );
    return id;
  }

  /** One field (or `relation:field` path) of the selected record. */
  async getField(path: string): Promise<unknown> {
    return getFieldValue(await this.getRecord([path]), path);
  }
}
