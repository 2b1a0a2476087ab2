import type { Plugin } from '@canopy/agent-core';
import { valueAtPath } from '../json-values';
import { requireCollection } from '../require-collection';
import { registerColumnWrites } from './column-writes';
import { type FlattenColumnOptions, resolveColumnFlattening } from './flatten-column-options';
import { exposedSchema } from './exposed-schema';
import { routeToJsonKeys, routeToNativeFields } from './native-fields';

/**
 * Turns the keys of an object column into fields named `<column>@@@<key>@@@…` (data-semantics
 * §5.1): each is computed from the column, writable (on create and update, deep-merged into the
 * stored object record by record) unless the column or `readonly` says otherwise, and nested enums
 * become `Enum` fields. Like every computed field, the generated fields are not sortable unless
 * `nativeFields` routes them to native columns; they are filterable through those native
 * columns, or, on a JSON column whose data source filters inside JSON values (`jsonKeyOperators`,
 * as `@canopy/datasource-sql` on PostgreSQL and MySQL/MariaDB), through the key path itself.
 *
 * @example
 * agent.customizeCollection('customers', (customers) =>
 *   customers.use(flattenColumn, { columnName: 'address', level: 2 }),
 * ); // address@@@city, address@@@geo@@@lat, address@@@geo@@@lng
 */
export const flattenColumn: Plugin<FlattenColumnOptions> = (_dataSource, collection, options) => {
  const customizer = requireCollection('flattenColumn', collection);
  const { columnName, paths, writable, nativeFields } = resolveColumnFlattening(
    customizer,
    options,
  );
  for (const flattened of paths) {
    customizer.addField(flattened.fieldName, {
      ...exposedSchema(flattened),
      dependencies: [columnName],
      getValues: (records) =>
        records.map((record) => valueAtPath(record[columnName], flattened.path)),
    });
  }
  if (writable) registerColumnWrites(customizer, columnName, paths);
  routeToJsonKeys(customizer, columnName, paths, nativeFields);
  routeToNativeFields(customizer, columnName, paths, nativeFields);
};
