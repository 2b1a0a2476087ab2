import type { ConditionTree } from '../query/condition-tree/condition-tree';
import type { ConditionTreeBranch } from '../query/condition-tree/condition-tree-branch';
import type { ConditionTreeLeaf } from '../query/condition-tree/condition-tree-leaf';
import { type RecordData, getFieldValue } from '../record/record-utils';
import type { ColumnType } from '../schema/column-type';
import { compileLeaf } from './match-leaf';
import type { EvaluationContext } from './time-zone';

/** Gives the column type of a field path (`title`, `author:country`). */
export type ColumnTypeResolver = (path: string) => ColumnType;

/** A compiled condition tree: tells whether a record matches. */
export type RecordPredicate = (record: RecordData) => boolean;

/**
 * Compiles a condition tree into a predicate over records (relations nested as objects); `null`
 * matches every record. Values, periods and patterns are computed once, not per record.
 */
export function compileTree(
  tree: ConditionTree | null,
  resolveType: ColumnTypeResolver,
  context: EvaluationContext,
): RecordPredicate {
  if (tree === null) return () => true;
  if ('aggregator' in tree) {
    const branch = tree as ConditionTreeBranch;
    const children = branch.conditions.map((child) => compileTree(child, resolveType, context));
    return branch.aggregator === 'And'
      ? (record) => children.every((child) => child(record))
      : (record) => children.some((child) => child(record));
  }
  const leaf = tree as ConditionTreeLeaf;
  const predicate = compileLeaf(leaf.operator, leaf.value, resolveType(leaf.field), context);
  return (record) => predicate(getFieldValue(record, leaf.field));
}

/**
 * Whether a record matches a condition tree.
 *
 * @example
 * matchRecord(tree, { title: 'Dune', author: { name: 'Frank' } }, () => 'String', { timezone: 'UTC' });
 */
export function matchRecord(
  tree: ConditionTree | null,
  record: RecordData,
  resolveType: ColumnTypeResolver,
  context: EvaluationContext,
): boolean {
  return compileTree(tree, resolveType, context)(record);
}

/** The records matching a condition tree, in their original order. */
export function filterRecords<T extends RecordData>(
  records: readonly T[],
  tree: ConditionTree | null,
  resolveType: ColumnTypeResolver,
  context: EvaluationContext,
): T[] {
  const predicate = compileTree(tree, resolveType, context);
  return records.filter(predicate);
}
