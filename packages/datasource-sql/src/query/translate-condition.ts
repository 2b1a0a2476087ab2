import type {
  ConditionTree,
  ConditionTreeBranch,
  ConditionTreeLeaf,
} from '@canopy/agent-core/toolkit';
import type { Knex } from 'knex';
import { ConditionRecorder } from './condition-recorder';
import type { QueryContext } from './query-context';
import { assertStorable } from './assert-storable';
import { ARRAY_OPERATORS } from './where/array-operators';
import { DATE_OPERATORS } from './where/date-operators';
import { EQUALITY_OPERATORS } from './where/equality-operators';
import { JSON_KEY_OPERATORS } from './where/json-key-operators';
import { MATCH_ALL, MATCH_NONE, type TranslationOptions } from './where/leaf';
import { TEXT_OPERATORS } from './where/text-operators';

export type { TranslationOptions } from './where/leaf';

const SCALAR_OPERATORS = { ...EQUALITY_OPERATORS, ...TEXT_OPERATORS, ...DATE_OPERATORS };

function applyLeaf(
  query: Knex.QueryBuilder,
  context: QueryContext,
  leaf: ConditionTreeLeaf,
  options: TranslationOptions,
): Knex.QueryBuilder {
  const { dialect } = context.environment;
  // A database limit rather than a schema rule: checked on validated trees too, before any SQL.
  assertStorable(leaf.field, leaf.value, dialect);
  const key = context.jsonKey(leaf.field);
  if (key) {
    assertStorable(leaf.field, key.keys, dialect);
    const translateKey = JSON_KEY_OPERATORS[leaf.operator];
    if (!translateKey) throw new Error(`Unsupported operator on a JSON key: "${leaf.operator}".`);
    return translateKey({ query, ref: key.ref, keys: key.keys, dialect, value: leaf.value });
  }
  const { ref, column } = context.column(leaf.field);
  const operators =
    column.type.kind === 'array' ? { ...EQUALITY_OPERATORS, ...ARRAY_OPERATORS } : SCALAR_OPERATORS;
  const translate = operators[leaf.operator];
  if (!translate) throw new Error(`Unsupported operator: "${leaf.operator}".`);
  return translate({ query, ref, column, dialect, value: leaf.value, options });
}

/**
 * Adds a condition tree to a builder's WHERE clause. Values are always bound; identifiers go
 * through knex quoting. An `And` without conditions matches everything, an `Or` without
 * conditions matches nothing. The tree is trusted: it was validated against the collection.
 */
function applyCondition(
  query: Knex.QueryBuilder,
  context: QueryContext,
  tree: ConditionTree,
  options: TranslationOptions,
): Knex.QueryBuilder {
  if (!('conditions' in tree)) {
    const leaf = tree as ConditionTreeLeaf;
    return query.where((inner) => void applyLeaf(inner, context, leaf, options));
  }
  const branch = tree as ConditionTreeBranch;
  if (branch.conditions.length === 0) {
    return query.whereRaw(branch.aggregator === 'And' ? MATCH_ALL : MATCH_NONE);
  }
  return query.where((inner) => {
    for (const condition of branch.conditions) {
      const add = (nested: Knex.QueryBuilder) =>
        void applyCondition(nested, context, condition, options);
      if (branch.aggregator === 'Or') inner.orWhere(add);
      else inner.where(add);
    }
  });
}

/**
 * Translates a condition tree in one walk: the recorder holds the statement-cache key's shape,
 * the bound values, and the builder calls to replay when the statement must be built. Paths
 * are resolved (and joins recorded) in `context`. `null` records nothing (matches everything).
 *
 * @example
 * const recorded = recordCondition(context, tree, options);
 * recorded.replay(knex.from('orders').select('id'));
 */
export function recordCondition(
  context: QueryContext,
  tree: ConditionTree | null,
  options: TranslationOptions,
): ConditionRecorder {
  const recorder = new ConditionRecorder();
  if (tree) applyCondition(recorder.builder, context, tree, options);
  return recorder;
}
