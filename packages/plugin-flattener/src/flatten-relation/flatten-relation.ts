import type { CollectionSchema, DataSourceCustomizer, Plugin } from '@canopy/agent-core';
import { FlattenerError } from '../flattener-error';
import { optionalBoolean, optionsObject, stringList } from '../option-checks';
import { requireCollection } from '../require-collection';
import { flattenedName } from '../separator';

/**
 * Options of {@link flattenRelation} (spec §4.5).
 *
 * @example
 * orders.use(flattenRelation, { relationName: 'customer:company', include: ['name', 'vat'] });
 */
export interface FlattenRelationOptions {
  /** A ManyToOne or OneToOne relation, or a path of them (`customer:company`). */
  relationName: string;
  /** Columns of the final collection to import (default: all). */
  include?: string[];
  /** Columns of the final collection not to import. */
  exclude?: string[];
  /** Import the columns read-only (`false` on a read-only column is an error). */
  readonly?: boolean;
}

function relationNames(schema: CollectionSchema): string {
  const names = Object.entries(schema.fields)
    .filter(([, field]) => field.type === 'ManyToOne' || field.type === 'OneToOne')
    .map(([name]) => `'${name}'`)
    .sort();
  return `[${names.join(', ')}]`;
}

/** Follows the relation path hop by hop; returns the final collection's schema. */
function followPath(
  dataSource: DataSourceCustomizer,
  start: { name: string; schema: CollectionSchema },
  hops: readonly string[],
): { name: string; schema: CollectionSchema } {
  let current = start;
  for (const hop of hops) {
    const label = `${current.name}.${hop}`;
    const field = current.schema.fields[hop];
    if (!field) {
      throw new FlattenerError(
        'FLATTENER_UNKNOWN_FIELD',
        `Relation '${label}' not found. ManyToOne and OneToOne relations of '${current.name}' are: ${relationNames(current.schema)}.`,
      );
    }
    if (field.type === 'Column') {
      throw new FlattenerError(
        'FLATTENER_UNSUPPORTED_TYPE',
        `'${label}' is a column, not a relation: flattenRelation needs a ManyToOne or OneToOne relation (use flattenColumn for object columns).`,
      );
    }
    if (field.type !== 'ManyToOne' && field.type !== 'OneToOne') {
      throw new FlattenerError(
        'FLATTENER_UNSUPPORTED_TYPE',
        `'${label}' is not a ManyToOne or OneToOne relation (it is ${field.type}): only to-one relations can be flattened.`,
      );
    }
    const foreign = dataSource.findCollection(field.foreignCollection);
    if (!foreign) {
      throw new FlattenerError(
        'FLATTENER_UNKNOWN_FIELD',
        `Relation '${label}' points to collection '${field.foreignCollection}', which does not exist.`,
      );
    }
    current = { name: foreign.name, schema: foreign.schema };
  }
  return current;
}

/**
 * Imports every column of a ManyToOne/OneToOne target — through several hops with `a:b` — as a
 * field named `<a>@@@<b>@@@<column>` (data-semantics §5.3): same type, filterable with the
 * target's operators, sortable when the target is, writable through nested relation writes
 * unless read-only.
 *
 * @example
 * agent.customizeCollection('orders', (orders) =>
 *   orders.use(flattenRelation, { relationName: 'customer:company', include: ['name'] }),
 * ); // customer@@@company@@@name
 */
export const flattenRelation: Plugin<FlattenRelationOptions> = (
  dataSource,
  collection,
  options,
) => {
  const customizer = requireCollection('flattenRelation', collection);
  const checked = optionsObject(`flattenRelation on '${customizer.name}'`, options);
  const { relationName } = checked;
  if (typeof relationName !== 'string' || relationName === '') {
    throw new FlattenerError(
      'FLATTENER_MISSING_OPTION',
      `flattenRelation on '${customizer.name}': options.relationName is required (a ManyToOne or OneToOne relation of '${customizer.name}', or a path like 'customer:company').`,
    );
  }
  const label = `${customizer.name}.${relationName}`;
  const hops = relationName.split(':');
  const target = followPath(dataSource, { name: customizer.name, schema: customizer.schema }, hops);
  const columns = Object.entries(target.schema.fields)
    .filter(([, field]) => field.type === 'Column')
    .map(([name]) => name);
  const include = stringList(`'${label}'`, 'include', checked.include);
  const exclude = stringList(`'${label}'`, 'exclude', checked.exclude);
  const readonly = optionalBoolean(`'${label}'`, 'readonly', checked.readonly);
  for (const name of [...include, ...exclude]) {
    if (!columns.includes(name)) {
      throw new FlattenerError(
        'FLATTENER_UNKNOWN_PATH',
        `'${label}' cannot be flattened: '${name}' is not a column of '${target.name}'. Its columns are: [${columns
          .map((column) => `'${column}'`)
          .sort()
          .join(', ')}].`,
      );
    }
  }
  const selected = (include.length > 0 ? include : columns).filter(
    (name) => !exclude.includes(name),
  );
  if (selected.length === 0) {
    throw new FlattenerError(
      'FLATTENER_NOTHING_TO_FLATTEN',
      `'${label}' cannot be flattened (no columns of '${target.name}' match include/exclude).`,
    );
  }
  for (const name of selected) {
    customizer.importField(flattenedName(hops.join('@@@'), [name]), {
      path: `${relationName}:${name}`,
      ...(readonly === undefined ? {} : { readonly }),
    });
  }
};
