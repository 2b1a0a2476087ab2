import { ValidationError } from '../../errors/canopy-error';
import { isOperator } from '../operators';
import { ConditionTree, type PlainConditionTree } from './condition-tree';
import { ConditionTreeBranch } from './condition-tree-branch';
import { ConditionTreeLeaf } from './condition-tree-leaf';

/**
 * Builds a tree from a plain object (or returns an existing tree unchanged). `null`/`undefined`
 * give `null` (match everything); a branch with exactly one condition collapses to it.
 */
export function toConditionTree(
  input: ConditionTree | PlainConditionTree | null | undefined,
): ConditionTree | null {
  if (input === null || input === undefined) return null;
  if (input instanceof ConditionTree) return input;

  if (typeof input === 'object' && 'field' in input && 'operator' in input) {
    if (typeof input.field !== 'string' || !isOperator(input.operator)) {
      throw new ValidationError(
        `Failed to instantiate condition tree from json: ${JSON.stringify(input)}. A leaf needs a string 'field' and a known 'operator'.`,
      );
    }
    return new ConditionTreeLeaf(input.field, input.operator, input.value);
  }

  if (typeof input === 'object' && 'aggregator' in input && Array.isArray(input.conditions)) {
    if (input.aggregator !== 'And' && input.aggregator !== 'Or') {
      throw new ValidationError(
        `Invalid aggregator '${String(input.aggregator)}': supported values are: ['Or','And'].`,
      );
    }
    const conditions = input.conditions.map((condition) => {
      const tree = toConditionTree(condition);
      if (!tree) throw new ValidationError('A branch condition cannot be null.');
      return tree;
    });
    return conditions.length === 1 && conditions[0]
      ? conditions[0]
      : new ConditionTreeBranch(input.aggregator, conditions);
  }

  throw new ValidationError(
    `Failed to instantiate condition tree from json: ${JSON.stringify(input)}. Expected { field, operator, value? } or { aggregator, conditions }.`,
  );
}
