import type { EvaluationContext } from '../evaluator/time-zone';
import type { ConditionTree } from '../query/condition-tree/condition-tree';
import type { ConditionTreeLeaf } from '../query/condition-tree/condition-tree-leaf';
import { toConditionTree } from '../query/condition-tree/to-condition-tree';
import { OPERATORS, type Operator } from '../query/operators';
import type { ColumnType } from '../schema/column-type';
import { type Alternative, ALTERNATIVES } from './alternatives';

function applicable(operator: Operator, columnType: ColumnType): [string, Alternative][] {
  return (ALTERNATIVES[operator] ?? [])
    .map((alternative, index): [string, Alternative] => [`${operator}#${index}`, alternative])
    .filter(([, alternative]) => {
      const primitive = typeof columnType === 'string' ? columnType : null;
      if (alternative.forTypes && !(primitive && alternative.forTypes.includes(primitive))) {
        return false;
      }
      return !(primitive && alternative.exceptTypes?.includes(primitive));
    });
}

function findAlternative(
  operator: Operator,
  native: ReadonlySet<Operator>,
  columnType: ColumnType,
  visited: ReadonlySet<string>,
): [string, Alternative] | null {
  for (const [key, alternative] of applicable(operator, columnType)) {
    if (visited.has(key)) continue;
    const next = new Set(visited).add(key);
    const viable = alternative.dependsOn.every(
      (dependency) =>
        native.has(dependency) || findAlternative(dependency, native, columnType, next) !== null,
    );
    if (viable) return [key, alternative];
  }
  return null;
}

/**
 * Every operator available on a column: the native ones plus those that can be rewritten into
 * them (data-semantics §2.4).
 *
 * @example
 * getEquivalentOperators(new Set(['Equal', 'Like']), 'String'); // adds In, Contains, StartsWith…
 */
export function getEquivalentOperators(
  native: ReadonlySet<Operator>,
  columnType: ColumnType,
): Set<Operator> {
  return new Set(
    OPERATORS.filter(
      (operator) =>
        native.has(operator) || findAlternative(operator, native, columnType, new Set()) !== null,
    ),
  );
}

/** The default `visited` of {@link rewriteLeaf} (never mutated: each step copies it). */
const NOTHING_VISITED: ReadonlySet<string> = new Set();

/**
 * Rewrites a leaf into a tree that only uses `native` operators, trying alternatives in table
 * order and recursing into the produced leaves. A leaf that cannot be rewritten is returned as
 * is (the data source will reject it). `null` means "match everything".
 */
export function rewriteLeaf(
  leaf: ConditionTreeLeaf,
  native: ReadonlySet<Operator>,
  columnType: ColumnType,
  context: EvaluationContext,
  visited: ReadonlySet<string> = NOTHING_VISITED,
): ConditionTree | null {
  if (native.has(leaf.operator)) return leaf;
  const found = findAlternative(leaf.operator, native, columnType, visited);
  if (!found) return leaf;
  const [key, alternative] = found;
  const next = new Set(visited).add(key);
  const replaced = toConditionTree(
    alternative.replacer(leaf.field, leaf.value, columnType, context),
  );
  return (
    replaced?.replaceLeafs((sub) =>
      sub === leaf ? sub : rewriteLeaf(sub, native, columnType, context, next),
    ) ?? null
  );
}

/**
 * Rewrites every leaf of a tree whose operator is not native for its field.
 *
 * @example
 * rewriteTree(tree, (field) => ({ native: schemaOperators(field), columnType: typeOf(field) }), { timezone: 'Europe/Paris' });
 */
export function rewriteTree(
  tree: ConditionTree | null,
  describe: (field: string) => { native: ReadonlySet<Operator>; columnType: ColumnType },
  context: EvaluationContext,
): ConditionTree | null {
  if (!tree) return tree;
  return tree.replaceLeafs((leaf) => {
    const { native, columnType } = describe(leaf.field);
    return rewriteLeaf(leaf, native, columnType, context);
  });
}
