import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import { MissingCollectionError } from '../../../toolkit/errors/schema-errors';
import type { DataSource } from '../../../toolkit/interfaces/data-source';
import type { RecordData } from '../../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import type { FieldSchema } from '../../../toolkit/schema/field-schema';
import { getField } from '../../../toolkit/schema/schema-utils';
import { CollectionDecorator } from '../collection-decorator';
import { DataSourceDecorator } from '../data-source-decorator';

/**
 * Layer 2 — `removeField`: hides fields from the exposed schema (they stay usable by other
 * customizations). Relations whose collection or keys are hidden are hidden too.
 */
export class PublicationCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: PublicationDataSourceDecorator;
  private readonly hidden = new Set<string>();

  hideField(name: string): void {
    const field = getField(this.name, this.childCollection.schema, name);
    if (field.type === 'Column' && field.isPrimaryKey) {
      throw new ValidationError(`Cannot hide primary key '${this.name}.${name}'.`);
    }
    this.hidden.add(name);
    for (const collection of this.dataSource.collections) collection.markSchemaAsDirty();
  }

  /** Whether a field of the child schema is exposed. */
  isPublished(name: string): boolean {
    const field = this.childCollection.schema.fields[name];
    if (!field || this.hidden.has(name)) return false;
    const ds = this.dataSource;
    const foreign = (collection: string, key: string) =>
      ds.isPublished(collection) && ds.getCollection(collection).isPublished(key);
    switch (field.type) {
      case 'Column':
        return true;
      case 'ManyToOne':
        return (
          ds.isPublished(field.foreignCollection) &&
          this.isPublished(field.foreignKey) &&
          foreign(field.foreignCollection, field.foreignKeyTarget)
        );
      case 'OneToMany':
      case 'OneToOne':
        return (
          foreign(field.foreignCollection, field.originKey) &&
          this.isPublished(field.originKeyTarget)
        );
      case 'ManyToMany':
        return (
          foreign(field.throughCollection, field.originKey) &&
          foreign(field.throughCollection, field.foreignKey) &&
          foreign(field.foreignCollection, field.foreignKeyTarget) &&
          this.isPublished(field.originKeyTarget)
        );
    }
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields: Record<string, FieldSchema> = {};
    for (const [name, field] of Object.entries(childSchema.fields))
      if (this.isPublished(name)) fields[name] = field;
    return { ...childSchema, fields };
  }

  override async create(caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    const records = await super.create(caller, data);
    return records.map((record) =>
      Object.fromEntries(Object.entries(record).filter(([key]) => this.isPublished(key))),
    );
  }
}

/** Layer 2 — `removeCollection`: hides collections from the exposed list. */
export class PublicationDataSourceDecorator extends DataSourceDecorator<PublicationCollectionDecorator> {
  private readonly hidden = new Set<string>();

  constructor(child: DataSource) {
    super(child, PublicationCollectionDecorator);
  }

  hideCollections(names: string[]): void {
    const existing = this.childDataSource.collections.map((collection) => collection.name);
    for (const name of names)
      if (!existing.includes(name)) throw new MissingCollectionError(name, existing);
    for (const name of names) this.hidden.add(name);
    for (const collection of super.collections) collection.markSchemaAsDirty();
  }

  isPublished(name: string): boolean {
    return !this.hidden.has(name);
  }

  override get collections(): PublicationCollectionDecorator[] {
    return super.collections.filter((collection) => this.isPublished(collection.name));
  }
}
