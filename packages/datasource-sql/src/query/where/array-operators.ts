import type { Operator } from '@canopy/agent-core/toolkit';
import type { Knex } from 'knex';
import { MATCH_ALL, bindings, type Leaf, type OperatorTranslator } from './leaf';

/**
 * SQL comparing the column with the leaf's values as `ARRAY[?, ?]::<column type>` (the cast
 * gives PostgreSQL the element type, enums included), with its bindings.
 */
function withArray(
  leaf: Leaf,
  template: (array: string) => string,
): [string, readonly Knex.RawBinding[]] {
  const values = leaf.value as unknown[];
  const array = `ARRAY[${values.map(() => '?').join(', ')}]::${leaf.column.sqlType}`;
  return [template(array), bindings([leaf.ref, ...values])];
}

const isNull = (value: unknown) => value === null || value === undefined;

/**
 * Operators on PostgreSQL array columns: whole-array equality, `@>` for IncludesAll and `&&` for
 * IncludesNone (a NULL array includes none).
 */
export const ARRAY_OPERATORS: Partial<Record<Operator, OperatorTranslator>> = {
  Equal: (leaf) =>
    isNull(leaf.value)
      ? leaf.query.whereNull(leaf.ref)
      : leaf.query.whereRaw(...withArray(leaf, (array) => `?? = ${array}`)),
  NotEqual: (leaf) =>
    isNull(leaf.value)
      ? leaf.query.whereNotNull(leaf.ref)
      : leaf.query.where((inner) =>
          inner.whereRaw(...withArray(leaf, (array) => `?? <> ${array}`)).orWhereNull(leaf.ref),
        ),
  IncludesAll: (leaf) =>
    (leaf.value as unknown[]).length === 0
      ? leaf.query.whereRaw(MATCH_ALL)
      : leaf.query.whereRaw(...withArray(leaf, (array) => `?? @> ${array}`)),
  IncludesNone: (leaf) =>
    (leaf.value as unknown[]).length === 0
      ? leaf.query.whereRaw(MATCH_ALL)
      : leaf.query.where((inner) =>
          inner
            .whereNull(leaf.ref)
            .orWhereRaw(...withArray(leaf, (array) => `NOT (?? && ${array})`)),
        ),
};
