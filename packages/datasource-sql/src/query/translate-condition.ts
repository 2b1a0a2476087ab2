import type { PlainConditionTree, PlainConditionTreeLeaf } from '@canopy/agent-core';
import type { Knex } from 'knex';
import type { QueryContext } from './query-context';
import { ARRAY_OPERATORS } from './where/array-operators';
import { DATE_OPERATORS } from './where/date-operators';
import { EQUALITY_OPERATORS } from './where/equality-operators';
import { MATCH_ALL, MATCH_NONE, type TranslationOptions } from './where/leaf';
import { TEXT_OPERATORS } from './where/text-operators';

export type { TranslationOptions } from './where/leaf';

const SCALAR_OPERATORS = { ...EQUALITY_OPERATORS, ...TEXT_OPERATORS, ...DATE_OPERATORS };

function applyLeaf(
  query: Knex.QueryBuilder,
  context: QueryContext,
  leaf: PlainConditionTreeLeaf,
  options: TranslationOptions,
): Knex.QueryBuilder {
  const { ref, column } = context.column(leaf.field);
  const operators =
    column.type.kind === 'array' ? { ...EQUALITY_OPERATORS, ...ARRAY_OPERATORS } : SCALAR_OPERATORS;
  const translate = operators[leaf.operator];
  if (!translate) throw new Error(`Unsupported operator: "${leaf.operator}".`);
  const { dialect } = context.environment;
  return translate({ query, ref, column, dialect, value: leaf.value, options });
}

/**
 * Adds a condition tree to a query's WHERE clause. Values are always bound; identifiers go
 * through knex quoting. An `And` without conditions matches everything, an `Or` without
 * conditions matches nothing.
 */
export function applyCondition(
  query: Knex.QueryBuilder,
  context: QueryContext,
  tree: PlainConditionTree | null,
  options: TranslationOptions,
): Knex.QueryBuilder {
  if (!tree) return query;
  if ('field' in tree) return query.where((inner) => void applyLeaf(inner, context, tree, options));
  if (tree.conditions.length === 0) {
    return query.whereRaw(tree.aggregator === 'And' ? MATCH_ALL : MATCH_NONE);
  }
  return query.where((inner) => {
    for (const condition of tree.conditions) {
      const add = (nested: Knex.QueryBuilder) =>
        void applyCondition(nested, context, condition, options);
      if (tree.aggregator === 'Or') inner.orWhere(add);
      else inner.where(add);
    }
  });
}
