import type { CollectionCustomizer, ColumnSchema, Operator } from '@canopy/agent-core';
import { allowedOperatorsForType } from '@canopy/agent-core/toolkit';
import { exposedSchema } from './exposed-schema';
import { FlattenerError } from '../flattener-error';
import type { FlattenedPath } from './flatten-column-options';

/** Whether a native column can stand for a flattened field (an Enum may be stored as String). */
function sameType(flattened: ColumnSchema['columnType'], native: ColumnSchema['columnType']) {
  return (
    (flattened === 'Enum' && native === 'String') ||
    JSON.stringify(native) === JSON.stringify(flattened)
  );
}

/**
 * Makes each operator of `operators` that the flattened field's type allows a condition on
 * `target` (a native column, or a key path inside the flattened JSON column).
 */
function routeOperators(
  collection: CollectionCustomizer,
  flattened: FlattenedPath,
  operators: ReadonlySet<Operator> | undefined,
  target: string,
): void {
  const allowed = allowedOperatorsForType({
    type: 'Column',
    filterOperators: new Set(),
    ...exposedSchema(flattened),
  });
  for (const operator of operators ?? []) {
    if (!allowed.has(operator)) continue;
    collection.replaceFieldOperator(flattened.fieldName, operator, (value) => ({
      field: target,
      operator,
      value,
    }));
  }
}

/**
 * Makes the flattened fields of a JSON column filterable where its data source filters on keys
 * inside JSON values (`jsonKeyOperators`, e.g. a PostgreSQL `jsonb` or a MariaDB `JSON` column of
 * `@canopy/datasource-sql`): each operator it offers that the field's type allows becomes the same
 * condition on the key path (`address:country`), evaluated by the database. Paths already routed
 * to `nativeFields`, and keys containing `:`, are left alone.
 */
export function routeToJsonKeys(
  collection: CollectionCustomizer,
  columnName: string,
  paths: readonly FlattenedPath[],
  nativeFields: ReadonlyMap<string, string>,
): void {
  const column = collection.schema.fields[columnName];
  if (column?.type !== 'Column' || !column.jsonKeyOperators?.size) return;
  for (const flattened of paths) {
    if (nativeFields.has(flattened.path.join('.'))) continue;
    if (flattened.path.some((key) => key.includes(':'))) continue;
    const keyPath = [columnName, ...flattened.path].join(':');
    routeOperators(collection, flattened, column.jsonKeyOperators, keyPath);
  }
}

/**
 * Routes filtering and sorting of flattened fields to native columns holding the same values
 * (`nativeFields`): each operator the native column supports (and the field's type allows)
 * becomes the same condition on the native column; sorting sorts by it; the native column is
 * hidden from the exposed schema.
 */
export function routeToNativeFields(
  collection: CollectionCustomizer,
  columnName: string,
  paths: readonly FlattenedPath[],
  nativeFields: ReadonlyMap<string, string>,
): void {
  const label = `${collection.name}.${columnName}`;
  for (const [joined, nativeName] of nativeFields) {
    const flattened = paths.find(({ path }) => path.join('.') === joined);
    if (!flattened) {
      throw new FlattenerError(
        'FLATTENER_UNKNOWN_PATH',
        `'${label}' cannot be flattened: options.nativeFields names '${joined}', which is not a flattened path (flattened paths are: ${paths
          .map(({ path }) => `'${path.join('.')}'`)
          .join(', ')}).`,
      );
    }
    const native = collection.schema.fields[nativeName];
    const exposed = exposedSchema(flattened);
    if (!native || native.type !== 'Column' || !sameType(exposed.columnType, native.columnType)) {
      const found = !native
        ? 'no such field'
        : native.type !== 'Column'
          ? `a ${native.type} relation`
          : `a column of type ${JSON.stringify(native.columnType)}`;
      throw new FlattenerError(
        'FLATTENER_UNKNOWN_FIELD',
        `'${label}' cannot be flattened: options.nativeFields maps '${joined}' to '${collection.name}.${nativeName}', which is ${found}; a column of type ${JSON.stringify(exposed.columnType)} holding the same value is required.`,
      );
    }
    routeOperators(collection, flattened, native.filterOperators, nativeName);
    if (native.isSortable) {
      collection.replaceFieldSorting(flattened.fieldName, [{ field: nativeName, ascending: true }]);
    }
    collection.removeField(nativeName);
  }
}
