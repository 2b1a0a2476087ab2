// Public API of @canopy/plugin-flattener. Named exports only, grouped by concern.

// Plugins
export { flattenColumn } from './flatten-column/flatten-column';
export type { FlattenColumnOptions } from './flatten-column/flatten-column-options';
export {
  flattenJsonColumn,
  type FlattenJsonColumnOptions,
} from './flatten-json-column/flatten-json-column';
export { flattenRelation, type FlattenRelationOptions } from './flatten-relation/flatten-relation';

// Naming of generated fields
export { FLATTEN_SEPARATOR } from './separator';

// Errors
export { FlattenerError, isFlattenerError, type FlattenerErrorCode } from './flattener-error';
