import type { Logger } from '../toolkit/interfaces/logger';
import type { CollectionCustomizer } from './collection-customizer';
import type { DataSourceCustomizer } from './data-source-customizer';

/**
 * A plugin: called with the data-source customizer, the collection customizer when used on a
 * collection (`null` at agent level), its options and a logger.
 *
 * @example
 * const addCreatedBy: Plugin<{ field: string }> = (ds, collection, options) => {
 *   collection?.addHook('Before', 'Create', (context) => {
 *     for (const record of context.data) record[options!.field] = context.caller.email;
 *   });
 * };
 */
export type Plugin<Options = unknown> = (
  dataSourceCustomizer: DataSourceCustomizer,
  collectionCustomizer: CollectionCustomizer | null,
  options: Options | undefined,
  logger: Logger,
) => void | Promise<void>;
