import { ValidationError } from '../../errors/canopy-error';
import { type CompositeId, type RecordData, getPrimaryKey } from '../../record/record-utils';
import type { CollectionSchema } from '../../schema/collection-schema';
import { getPrimaryKeys } from '../../schema/schema-utils';
import { isValidated, markValidated } from '../../validation/validated';
import { type ConditionTree, type PlainConditionTree } from './condition-tree';
import { ConditionTreeBranch } from './condition-tree-branch';
import { ConditionTreeLeaf } from './condition-tree-leaf';
import { toConditionTree } from './to-condition-tree';

type TreeInput = ConditionTree | PlainConditionTree | null | undefined;
type TreeArguments = (TreeInput | readonly TreeInput[])[];

function flatten(trees: TreeArguments): (ConditionTree | null)[] {
  return trees.flatMap((tree) => (Array.isArray(tree) ? tree : [tree])).map(toConditionTree);
}

function matchIdsOnColumns(columns: string[], ids: CompositeId[]): ConditionTree {
  const [first, ...rest] = columns;
  if (first === undefined)
    throw new ValidationError('Collection must have at least one primary key.');
  if (rest.length === 0) {
    const values = ids.map((id) => id[0]);
    return values.length === 1
      ? new ConditionTreeLeaf(first, 'Equal', values[0])
      : new ConditionTreeLeaf(first, 'In', values);
  }
  const byFirst = new Map<unknown, CompositeId[]>();
  for (const id of ids) {
    const [head, ...tail] = id;
    const list = byFirst.get(head) ?? [];
    list.push(tail);
    byFirst.set(head, list);
  }
  return ConditionTreeFactory.union(
    [...byFirst].map(([value, tails]) =>
      ConditionTreeFactory.intersect(
        new ConditionTreeLeaf(first, 'Equal', value),
        matchIdsOnColumns(rest, tails),
      ),
    ),
  ) as ConditionTree;
}

/**
 * Builders of condition trees.
 *
 * @example
 * ConditionTreeFactory.intersect(
 *   ConditionTreeFactory.fromPlainObject({ field: 'status', operator: 'Equal', value: 'paid' }),
 *   ConditionTreeFactory.matchIds(schema, [[1], [2]]),
 * );
 */
export const ConditionTreeFactory = {
  /** `null`: matches every record. */
  MatchAll: null,

  /** An `Or` without conditions: matches no record. */
  get MatchNone(): ConditionTree {
    // No leaf: valid for every collection.
    return markValidated(new ConditionTreeBranch('Or', []));
  },

  /**
   * Builds a tree from JSON: `null` → `null` (match all); `{ field, operator, value? }` → a leaf;
   * `{ aggregator, conditions }` → a branch (collapsed to its only child when it has one).
   */
  fromPlainObject(json: TreeInput): ConditionTree | null {
    return toConditionTree(json);
  },

  /**
   * `And` of the given trees (arguments or one array). Null trees are dropped, nested `And`s
   * spliced, one remaining tree returned as is; no tree → `null` (match all).
   */
  intersect(...trees: TreeArguments): ConditionTree | null {
    // Runs for every request (filter, scope, ids): a plain loop, no intermediate arrays.
    const conditions: ConditionTree[] = [];
    let validated = true;
    const add = (input: TreeInput): void => {
      const tree = toConditionTree(input);
      if (tree === null) return;
      validated &&= isValidated(tree);
      if (tree instanceof ConditionTreeBranch && tree.aggregator === 'And') {
        for (const condition of tree.conditions) conditions.push(condition);
      } else conditions.push(tree);
    };
    for (const input of trees) {
      if (Array.isArray(input)) for (const one of input as readonly TreeInput[]) add(one);
      else add(input as TreeInput);
    }
    if (conditions.length === 0) return null;
    if (conditions.length === 1) return conditions[0] ?? null;
    // The intersection of validated trees is valid where they are.
    const branch = new ConditionTreeBranch('And', conditions);
    return validated ? markValidated(branch) : branch;
  },

  /**
   * `Or` of the given trees (arguments or one array). A `null` tree (match all) makes the union
   * match all; nested `Or`s are spliced; no tree → match none.
   */
  union(...trees: TreeArguments): ConditionTree | null {
    const all = flatten(trees);
    if (all.some((tree) => tree === null)) return null;
    const conditions = (all as ConditionTree[]).flatMap((tree) =>
      tree instanceof ConditionTreeBranch && tree.aggregator === 'Or' ? tree.conditions : [tree],
    );
    if (conditions.length === 1) return conditions[0] ?? null;
    const branch = new ConditionTreeBranch('Or', conditions);
    return all.every((tree) => isValidated(tree)) ? markValidated(branch) : branch;
  },

  /** A tree matching exactly the given composite ids (no ids → match none). */
  matchIds(schema: CollectionSchema, ids: readonly CompositeId[]): ConditionTree {
    const pks = getPrimaryKeys(schema);
    if (pks.length === 0) {
      throw new ValidationError('Collection must have at least one primary key.');
    }
    for (const pk of pks) {
      const field = schema.fields[pk];
      const operators = field?.type === 'Column' ? field.filterOperators : new Set<string>();
      if (!operators.has('Equal') || !operators.has('In')) {
        throw new ValidationError(`Field '${pk}' must support operators: ['Equal', 'In'].`);
      }
    }
    if (ids.length === 0) return ConditionTreeFactory.MatchNone;
    return matchIdsOnColumns(pks, [...ids]);
  },

  /** A tree matching exactly the given records (by primary key). */
  matchRecords(schema: CollectionSchema, records: readonly RecordData[]): ConditionTree {
    return ConditionTreeFactory.matchIds(
      schema,
      records.map((record) => getPrimaryKey(schema, record)),
    );
  },
};
