/** Condition trees as the agent reads them in `filters` (agent protocol §6.3). */
import { valueKind } from './operators';

export interface ConditionLeaf {
  field: string;
  operator: string;
  value?: unknown;
}

export interface ConditionBranch {
  aggregator: 'and' | 'or';
  conditions: ConditionTree[];
}

export type ConditionTree = ConditionLeaf | ConditionBranch;

export function isBranch(tree: ConditionTree): tree is ConditionBranch {
  return 'aggregator' in tree;
}

export function leaf(field: string, operator: string, value?: unknown): ConditionLeaf {
  return value === undefined ? { field, operator } : { field, operator, value };
}

export function and(...conditions: ConditionTree[]): ConditionBranch {
  return { aggregator: 'and', conditions };
}

export function or(...conditions: ConditionTree[]): ConditionBranch {
  return { aggregator: 'or', conditions };
}

function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * The tree to send: leaves without a field, an operator or a needed value are left out, empty
 * branches disappear, one-condition branches become their condition, and values get the shape
 * their operator takes (no value, a list, a number). `undefined` when nothing is left.
 */
export function compactTree(tree: ConditionTree | undefined): ConditionTree | undefined {
  if (!tree) return undefined;
  if (isBranch(tree)) {
    const conditions = tree.conditions
      .map((condition) => compactTree(condition))
      .filter((condition): condition is ConditionTree => condition !== undefined);
    if (conditions.length === 0) return undefined;
    if (conditions.length === 1) return conditions[0];
    return { aggregator: tree.aggregator, conditions };
  }
  if (!tree.field || !tree.operator) return undefined;
  const kind = valueKind(tree.operator);
  if (kind === 'none') return { field: tree.field, operator: tree.operator, value: null };
  if (isEmptyValue(tree.value)) return undefined;
  if (kind === 'list') {
    const items = Array.isArray(tree.value)
      ? tree.value
      : String(tree.value)
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean);
    return items.length ? { field: tree.field, operator: tree.operator, value: items } : undefined;
  }
  if (kind === 'number') {
    const number = Number(tree.value);
    return Number.isFinite(number)
      ? { field: tree.field, operator: tree.operator, value: number }
      : undefined;
  }
  return { field: tree.field, operator: tree.operator, value: tree.value };
}

/** AND of several optional trees (e.g. the user's filter and a related-tab constraint). */
export function intersect(...trees: (ConditionTree | undefined)[]): ConditionTree | undefined {
  return compactTree(and(...trees.filter((tree): tree is ConditionTree => tree !== undefined)));
}

/** Counts the leaves of a tree (what the filter button shows). */
export function countLeaves(tree: ConditionTree | undefined): number {
  if (!tree) return 0;
  return isBranch(tree) ? tree.conditions.reduce((sum, child) => sum + countLeaves(child), 0) : 1;
}

/** Reads a tree back from its JSON text; anything that is not a tree gives `undefined`. */
export function parseTree(text: string | null | undefined): ConditionTree | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return isTree(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isTree(value: unknown): value is ConditionTree {
  if (!value || typeof value !== 'object') return false;
  const node = value as Record<string, unknown>;
  if ('aggregator' in node) {
    return (
      (node.aggregator === 'and' || node.aggregator === 'or') &&
      Array.isArray(node.conditions) &&
      node.conditions.every(isTree)
    );
  }
  return typeof node.field === 'string' && typeof node.operator === 'string';
}
