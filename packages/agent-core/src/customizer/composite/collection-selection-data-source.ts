import { MissingCollectionError } from '../../toolkit/errors/schema-errors';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { DataSource } from '../../toolkit/interfaces/data-source';
import { CollectionDecorator } from '../decorators/collection-decorator';
import { DataSourceDecorator } from '../decorators/data-source-decorator';

/** Keeps only some collections of a data source (`addDataSource` `include` / `exclude`). */
export class CollectionSelectionDataSource extends DataSourceDecorator {
  private readonly kept: Set<string>;

  constructor(child: DataSource, options: { include?: string[]; exclude?: string[] }) {
    super(child, CollectionDecorator);
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

  override get collections(): CollectionDecorator[] {
    return super.collections.filter((collection: Collection) => this.kept.has(collection.name));
  }

  override getCollection(name: string): CollectionDecorator {
    if (!this.kept.has(name)) throw new MissingCollectionError(name, [...this.kept]);
    return super.getCollection(name);
  }
}
