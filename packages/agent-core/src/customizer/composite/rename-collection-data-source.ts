import { ValidationError } from '../../toolkit/errors/canopy-error';
import { MissingCollectionError } from '../../toolkit/errors/schema-errors';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { DataSource } from '../../toolkit/interfaces/data-source';
import type { CollectionSchema } from '../../toolkit/schema/collection-schema';
import type { FieldSchema } from '../../toolkit/schema/field-schema';
import { CollectionDecorator } from '../decorators/collection-decorator';
import { DataSourceDecorator } from '../decorators/data-source-decorator';

/** A map old → new collection name, or a function returning the new name (or nothing). */
export type CollectionRenaming =
  Record<string, string> | ((name: string) => string | null | undefined);

class RenamedCollection extends CollectionDecorator {
  declare readonly dataSource: RenameCollectionDataSource;

  override get name(): string {
    return this.dataSource.newName(this.childCollection.name);
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields: Record<string, FieldSchema> = {};
    for (const [name, field] of Object.entries(childSchema.fields)) {
      if (field.type === 'Column') fields[name] = field;
      else if (field.type === 'ManyToMany') {
        fields[name] = {
          ...field,
          foreignCollection: this.dataSource.newName(field.foreignCollection),
          throughCollection: this.dataSource.newName(field.throughCollection),
        };
      } else
        fields[name] = {
          ...field,
          foreignCollection: this.dataSource.newName(field.foreignCollection),
        };
    }
    return { ...childSchema, fields };
  }
}

/**
 * Renames collections of one data source (`addDataSource` `rename`); relations pointing to
 * renamed collections follow.
 */
export class RenameCollectionDataSource extends DataSourceDecorator<RenamedCollection> {
  private readonly toNew = new Map<string, string>();
  private readonly toOld = new Map<string, string>();

  constructor(child: DataSource, renaming: CollectionRenaming) {
    super(child, RenamedCollection as never);
    const names = child.collections.map((collection: Collection) => collection.name);
    const entries =
      typeof renaming === 'function'
        ? names.map((name) => [name, renaming(name)] as const)
        : Object.entries(renaming);
    for (const [oldName, newName] of entries) {
      if (!newName || newName === oldName) continue;
      if (!names.includes(oldName)) throw new MissingCollectionError(oldName, names);
      if (this.toNew.has(oldName)) {
        throw new ValidationError(
          `Cannot rename a collection twice: ${oldName}->${this.toNew.get(oldName)}->${newName}`,
        );
      }
      if (
        this.toOld.has(newName) ||
        (names.includes(newName) && !entries.some(([o]) => o === newName))
      ) {
        throw new ValidationError(`The given new collection name "${newName}" is already defined`);
      }
      this.toNew.set(oldName, newName);
      this.toOld.set(newName, oldName);
    }
  }

  /** The exposed name of a child collection. */
  newName(oldName: string): string {
    return this.toNew.get(oldName) ?? oldName;
  }

  override getCollection(name: string): RenamedCollection {
    if (this.toNew.has(name) && !this.toOld.has(name)) {
      throw new ValidationError(
        `Collection '${name}' has been renamed to '${this.toNew.get(name)}'.`,
      );
    }
    const oldName = this.toOld.get(name) ?? name;
    try {
      return super.getCollection(oldName);
    } catch (error) {
      if (error instanceof MissingCollectionError) {
        throw new MissingCollectionError(
          name,
          this.collections.map((collection) => collection.name),
        );
      }
      throw error;
    }
  }
}
