import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import type { Filter } from '../../../toolkit/query/filter';
import type { RecordData } from '../../../toolkit/record/record-utils';
import { getPrimaryKeys } from '../../../toolkit/schema/schema-utils';
import { CollectionCustomizationContext } from '../../context/customization-context';
import { CollectionDecorator } from '../collection-decorator';

/** Context of an `overrideCreate` handler. */
export class CreateOverrideContext extends CollectionCustomizationContext {
  constructor(
    collection: CollectionDecorator['childCollection'],
    caller: Caller,
    readonly data: RecordData[],
  ) {
    super(collection, caller);
  }
}

/** Context of an `overrideUpdate` handler. */
export class UpdateOverrideContext extends CollectionCustomizationContext {
  constructor(
    collection: CollectionDecorator['childCollection'],
    caller: Caller,
    readonly filter: Filter,
    readonly patch: RecordData,
  ) {
    super(collection, caller);
  }
}

/** Context of an `overrideDelete` handler. */
export class DeleteOverrideContext extends CollectionCustomizationContext {
  constructor(
    collection: CollectionDecorator['childCollection'],
    caller: Caller,
    readonly filter: Filter,
  ) {
    super(collection, caller);
  }
}

/** Replaces the data source's create (must return the created records). */
export type CreateOverrideHandler = (
  context: CreateOverrideContext,
) => Promise<RecordData[]> | RecordData[];
/** Replaces the data source's update. */
export type UpdateOverrideHandler = (context: UpdateOverrideContext) => Promise<void> | void;
/** Replaces the data source's delete. */
export type DeleteOverrideHandler = (context: DeleteOverrideContext) => Promise<void> | void;

/**
 * Layer 24 — `overrideCreate/Update/Delete`: replaces the bottom write operations. Sitting just
 * above the data sources, handlers receive filters fully rewritten to native fields.
 */
export class OverrideCollectionDecorator extends CollectionDecorator {
  private createHandler: CreateOverrideHandler | null = null;
  private updateHandler: UpdateOverrideHandler | null = null;
  private deleteHandler: DeleteOverrideHandler | null = null;

  addCreateOverride(handler: CreateOverrideHandler): void {
    this.createHandler = handler;
  }

  addUpdateOverride(handler: UpdateOverrideHandler): void {
    this.updateHandler = handler;
  }

  addDeleteOverride(handler: DeleteOverrideHandler): void {
    this.deleteHandler = handler;
  }

  override async create(caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    if (!this.createHandler) return super.create(caller, data);
    const created = await this.createHandler(
      new CreateOverrideContext(this.childCollection, caller, data),
    );
    if (
      !Array.isArray(created) ||
      created.some((record) => typeof record !== 'object' || record === null)
    ) {
      throw new ValidationError(
        `The records must be an array of objects (overrideCreate of '${this.name}').`,
      );
    }
    const pks = getPrimaryKeys(this.schema);
    return created.map((record) => {
      const kept = Object.fromEntries(
        Object.entries(record).filter(([key]) => this.schema.fields[key]?.type === 'Column'),
      );
      if (!pks.some((pk) => kept[pk] !== undefined)) {
        throw new ValidationError(
          `The record does not contain any primary key field (overrideCreate of '${this.name}', expected one of [${pks.join(', ')}]).`,
        );
      }
      return kept;
    });
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    if (!this.updateHandler) return super.update(caller, filter, patch);
    await this.updateHandler(
      new UpdateOverrideContext(this.childCollection, caller, filter, patch),
    );
  }

  override async delete(caller: Caller, filter: Filter): Promise<void> {
    if (!this.deleteHandler) return super.delete(caller, filter);
    await this.deleteHandler(new DeleteOverrideContext(this.childCollection, caller, filter));
  }
}
