import type { CollectionCustomizer } from '@canopy/agent-core';
import { FlattenerError } from './flattener-error';

/** The collection customizer a plugin was used on, or the error for a data-source-level use. */
export function requireCollection(
  plugin: string,
  collection: CollectionCustomizer | null,
): CollectionCustomizer {
  if (!collection) {
    throw new FlattenerError(
      'FLATTENER_NOT_ON_COLLECTION',
      `This plugin can only be called when customizing collections: use ${plugin} with ` +
        `collection.use(${plugin}, options) inside customizeCollection, not at data-source level.`,
    );
  }
  return collection;
}
