import { ValidationError } from '../errors/canopy-error';
import type { Collection } from '../interfaces/collection';
import type { Aggregation } from '../query/aggregation';
import type { SortClause } from '../query/sort';
import { resolveColumnPath } from './field-path';
import { isValidated, markValidated } from './validated';

/** Every projected path must end on a column, through ManyToOne/OneToOne relations only. */
export function validateProjection(collection: Collection, projection: readonly string[]): void {
  for (const path of projection) resolveColumnPath(collection, path);
}

/** Sort fields must be sortable columns (or paths to them) and directions booleans. */
export function validateSort(collection: Collection, sort: readonly SortClause[] | null): void {
  for (const clause of sort ?? []) {
    const { collection: owner, name, schema } = resolveColumnPath(collection, clause.field);
    if (typeof clause.ascending !== 'boolean') {
      throw new ValidationError(
        `Invalid sort.ascending value for '${clause.field}': expected true or false.`,
      );
    }
    if (!schema.isSortable) {
      throw new ValidationError(`The '${owner.name}.${name}' field is not sortable.`);
    }
  }
}

/**
 * {@link validateSort} for a sort not validated yet (see `validated.ts`), which it then marks:
 * a sort object is checked once per schema epoch however many layers see it.
 */
export function validateSortOnce(collection: Collection, sort: readonly SortClause[] | null): void {
  if (!sort || isValidated(sort)) return;
  validateSort(collection, sort);
  markValidated(sort);
}

/** Aggregation field and groups must be columns; groups must be groupable and supported. */
export function validateAggregation(collection: Collection, aggregation: Aggregation): void {
  if (aggregation.field) resolveColumnPath(collection, aggregation.field);
  const { supportGroups, supportedDateOperations } = collection.schema.aggregationCapabilities;
  if (aggregation.groups.length > 0 && !supportGroups) {
    throw new ValidationError(
      `Collection '${collection.name}' does not support aggregate with groups.`,
    );
  }
  for (const group of aggregation.groups) {
    const { schema } = resolveColumnPath(collection, group.field);
    if (schema.isGroupable === false) {
      throw new ValidationError(`Field '${group.field}' is not groupable on '${collection.name}'.`);
    }
    if (group.operation && !supportedDateOperations.has(group.operation)) {
      const supported = [...supportedDateOperations];
      throw new ValidationError(
        `Collection '${collection.name}' does not support the '${group.operation}' date operation. Supported date operations: [${supported.length ? supported.join(', ') : 'none'}].`,
      );
    }
  }
}
