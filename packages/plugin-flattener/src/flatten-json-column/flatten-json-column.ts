import type { CompositeColumnType, Plugin } from '@canopy/agent-core';
import { depthOf, findTypeProblem, isComposite } from '../composite-type';
import { flattenColumn } from '../flatten-column/flatten-column';
import { FlattenerError } from '../flattener-error';
import { optionalBoolean, optionsObject } from '../option-checks';
import { requireCollection } from '../require-collection';

/**
 * Options of {@link flattenJsonColumn} (spec §4.5).
 *
 * @example
 * orders.use(flattenJsonColumn, {
 *   columnName: 'delivery',
 *   columnType: { carrier: 'String', address: { city: 'String', zip: 'String' } },
 * });
 */
export interface FlattenJsonColumnOptions {
  /** The `Json` column to flatten. */
  columnName: string;
  /** The shape of (a subset of) the column's values: key → type, objects nested. */
  columnType: CompositeColumnType;
  /** How many keys deep to flatten (default: every level of `columnType`). */
  level?: number;
  /** Expose the generated fields read-only. */
  readonly?: boolean;
  /** Keep the original column in the exposed schema (default: hidden, still used inside). */
  keepOriginalColumn?: boolean;
  /** Native columns holding flattened values, as in {@link FlattenColumnOptions.nativeFields}. */
  nativeFields?: Record<string, string>;
}

/**
 * Flattens a `Json` column whose shape is given (data-semantics §5.2): every leaf of
 * `columnType` becomes a field, as {@link flattenColumn} does, and the original column is hidden
 * unless `keepOriginalColumn` is set.
 *
 * @example
 * agent.customizeCollection('orders', (orders) =>
 *   orders.use(flattenJsonColumn, {
 *     columnName: 'delivery',
 *     columnType: { carrier: 'String', address: { city: 'String' } },
 *   }),
 * ); // delivery@@@carrier, delivery@@@address@@@city; delivery hidden
 */
export const flattenJsonColumn: Plugin<FlattenJsonColumnOptions> = (
  dataSource,
  collection,
  options,
  logger,
) => {
  const customizer = requireCollection('flattenJsonColumn', collection);
  const checked = optionsObject(`flattenJsonColumn on '${customizer.name}'`, options);
  const { columnName, columnType } = checked;
  if (typeof columnName !== 'string' || columnName === '' || columnType === undefined) {
    throw new FlattenerError(
      'FLATTENER_MISSING_OPTION',
      `flattenJsonColumn on '${customizer.name}${typeof columnName === 'string' && columnName ? `.${columnName}` : ''}': options.columnName and options.columnType are required (a Json column and the shape of its values, like { city: 'String' }).`,
    );
  }
  const label = `${customizer.name}.${columnName}`;
  const field = customizer.schema.fields[columnName];
  if (field?.type === 'Column' && field.columnType !== 'Json') {
    throw new FlattenerError(
      'FLATTENER_UNSUPPORTED_TYPE',
      `'${label}' cannot be flattened with flattenJsonColumn (only available on primitive Json columns, this one is ${JSON.stringify(field.columnType)}): prefer flattenColumn otherwise.`,
    );
  }
  const problem = isComposite(columnType as never)
    ? findTypeProblem(columnType)
    : `got ${JSON.stringify(columnType)}`;
  if (problem || Object.keys(columnType as object).length === 0) {
    throw new FlattenerError(
      'FLATTENER_INVALID_OPTION',
      `'${label}' cannot be flattened: options.columnType must be defined as json object describing the values, like { city: 'String', geo: { lat: 'Number' } } (${problem ?? 'it has no key'}).`,
    );
  }
  const keepOriginalColumn = optionalBoolean(
    `'${label}'`,
    'keepOriginalColumn',
    checked.keepOriginalColumn,
  );
  flattenColumn(
    dataSource,
    customizer,
    {
      columnName,
      columnType: columnType as CompositeColumnType,
      level: (checked.level as number | undefined) ?? depthOf(columnType as CompositeColumnType),
      readonly: checked.readonly as boolean | undefined,
      nativeFields: checked.nativeFields as Record<string, string> | undefined,
    },
    logger,
  );
  if (!keepOriginalColumn) customizer.removeField(columnName);
};
