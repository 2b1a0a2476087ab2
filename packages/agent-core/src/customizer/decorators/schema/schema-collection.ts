import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import { CollectionDecorator } from '../collection-decorator';

/** Layer 7 — schema-only overrides such as `disableCount`. */
export class SchemaCollectionDecorator extends CollectionDecorator {
  private overrides: Partial<CollectionSchema> = {};

  overrideSchema(overrides: Partial<CollectionSchema>): void {
    this.overrides = { ...this.overrides, ...overrides };
    this.markSchemaAsDirty();
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    return { ...childSchema, ...this.overrides };
  }
}
