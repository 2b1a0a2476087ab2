import { MissingCollectionError } from '../../toolkit/errors/schema-errors';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { DataSource } from '../../toolkit/interfaces/data-source';
import type { CollectionSchema } from '../../toolkit/schema/collection-schema';
import type { FieldSchema } from '../../toolkit/schema/field-schema';
import { CollectionDecorator } from '../decorators/collection-decorator';
import { DataSourceDecorator } from '../decorators/data-source-decorator';

/** A kept collection: its relations to collections left out are dropped from its schema. */
class SelectedCollection extends CollectionDecorator {
  declare readonly dataSource: CollectionSelectionDataSource;

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields: Record<string, FieldSchema> = {};
    for (const [name, field] of Object.entries(childSchema.fields)) {
      if (this.reachesKeptCollections(field)) fields[name] = field;
    }
    return { ...childSchema, fields };
  }

  private reachesKeptCollections(field: FieldSchema): boolean {
    if (field.type === 'Column') return true;
    const { kept } = this.dataSource;
    if (field.type === 'ManyToMany' && !kept.has(field.throughCollection)) return false;
    return kept.has(field.foreignCollection);
  }
}

/**
 * Keeps only some collections of a data source (`addDataSource` `include` / `exclude`); the
 * relations of kept collections to the others are dropped with them.
 */
export class CollectionSelectionDataSource extends DataSourceDecorator<SelectedCollection> {
  readonly kept: ReadonlySet<string>;

  constructor(child: DataSource, options: { include?: string[]; exclude?: string[] }) {
    super(child, SelectedCollection);
    const names = child.collections.map((collection) => collection.name);
    for (const name of [...(options.include ?? []), ...(options.exclude ?? [])]) {
      if (!names.includes(name)) throw new MissingCollectionError(name, names);
    }
    this.kept = new Set(
      names.filter(
        (name) =>
          (!options.include || options.include.includes(name)) &&
          !(options.exclude ?? []).includes(name),
      ),
    );
  }

  override get collections(): SelectedCollection[] {
    return super.collections.filter((collection: Collection) => this.kept.has(collection.name));
  }

  override getCollection(name: string): SelectedCollection {
    if (!this.kept.has(name)) throw new MissingCollectionError(name, [...this.kept]);
    return super.getCollection(name);
  }
}
