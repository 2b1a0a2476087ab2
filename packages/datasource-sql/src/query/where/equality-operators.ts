import type { Operator } from '@canopy/agent-core/toolkit';
import {
  MATCH_ALL,
  MATCH_NONE,
  bindings,
  bound,
  equalityPlaceholder,
  isText,
  matchAny,
  type Leaf,
  type OperatorTranslator,
} from './leaf';

function membership(leaf: Leaf, negate: boolean) {
  const { query, ref } = leaf;
  const values = leaf.value as unknown[];
  const nonNull = values.filter((value) => value !== null && value !== undefined);
  const hasNull = nonNull.length !== values.length;
  const list = nonNull.map(() => equalityPlaceholder(leaf)).join(', ');
  const membershipBindings = bindings([ref, ...nonNull.map((value) => bound(leaf, value))]);
  if (!negate) {
    if (nonNull.length === 0) return hasNull ? query.whereNull(ref) : query.whereRaw(MATCH_NONE);
    return query.where((inner) => {
      inner.whereRaw(...matchAny(leaf, nonNull));
      if (hasNull) inner.orWhereNull(ref);
    });
  }
  if (nonNull.length === 0) return hasNull ? query.whereNotNull(ref) : query.whereRaw(MATCH_ALL);
  if (hasNull) return query.whereNotNull(ref).whereRaw(`?? NOT IN (${list})`, membershipBindings);
  return query.where((inner) =>
    inner.whereRaw(`?? NOT IN (${list})`, membershipBindings).orWhereNull(ref),
  );
}

function comparison(sign: string): OperatorTranslator {
  return (leaf) =>
    leaf.query.whereRaw(`?? ${sign} ?`, bindings([leaf.ref, bound(leaf, leaf.value)]));
}

/**
 * Presence, equality, membership and ordering (data-semantics §4.6): `NotEqual` and `NotIn`
 * also match NULL; `In []` matches nothing and `NotIn []` everything; `Present`/`Blank` treat
 * the empty string as blank on text columns.
 */
export const EQUALITY_OPERATORS: Partial<Record<Operator, OperatorTranslator>> = {
  Missing: ({ query, ref }) => query.whereNull(ref),
  Present: (leaf) =>
    isText(leaf.column)
      ? leaf.query.whereNotNull(leaf.ref).whereRaw("?? <> ''", [leaf.ref])
      : leaf.query.whereNotNull(leaf.ref),
  Blank: (leaf) =>
    isText(leaf.column)
      ? leaf.query.where((inner) => inner.whereNull(leaf.ref).orWhereRaw("?? = ''", [leaf.ref]))
      : leaf.query.whereNull(leaf.ref),
  Equal: (leaf) =>
    leaf.value === null || leaf.value === undefined
      ? leaf.query.whereNull(leaf.ref)
      : leaf.query.whereRaw(...matchAny(leaf, [leaf.value])),
  NotEqual: (leaf) =>
    leaf.value === null || leaf.value === undefined
      ? leaf.query.whereNotNull(leaf.ref)
      : leaf.query.where((inner) =>
          inner
            .whereRaw(
              `?? <> ${equalityPlaceholder(leaf)}`,
              bindings([leaf.ref, bound(leaf, leaf.value)]),
            )
            .orWhereNull(leaf.ref),
        ),
  In: (leaf) => membership(leaf, false),
  NotIn: (leaf) => membership(leaf, true),
  LessThan: comparison('<'),
  GreaterThan: comparison('>'),
  LessThanOrEqual: comparison('<='),
  GreaterThanOrEqual: comparison('>='),
};
