import type { Caller } from '../../../toolkit/caller';
import type { AggregateResult, Aggregation } from '../../../toolkit/query/aggregation';
import type { ConditionTree } from '../../../toolkit/query/condition-tree/condition-tree';
import type { ConditionTreeBranch } from '../../../toolkit/query/condition-tree/condition-tree-branch';
import type { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import type { Filter } from '../../../toolkit/query/filter';
import type { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import type { Projection } from '../../../toolkit/query/projection';
import type { RecordData } from '../../../toolkit/record/record-utils';
import { CollectionDecorator } from '../collection-decorator';

function allowedValues(leaf: ConditionTreeLeaf): unknown[] | null {
  if (leaf.operator === 'Equal') return [leaf.value];
  if (leaf.operator === 'In' && Array.isArray(leaf.value)) return leaf.value;
  return null;
}

/**
 * Whether a tree obviously matches nothing: an `In` with an empty list, an `Or` whose children
 * are all empty, an `And` with an empty child or contradictory `Equal`/`In` leaves on one field.
 */
export function matchesNothing(tree: ConditionTree | null): boolean {
  if (!tree) return false;
  if (!('aggregator' in tree)) {
    const values = allowedValues(tree as ConditionTreeLeaf);
    return values !== null && values.length === 0;
  }
  const branch = tree as ConditionTreeBranch;
  if (branch.aggregator === 'Or') return branch.conditions.every(matchesNothing);
  if (branch.conditions.some(matchesNothing)) return true;
  const byField = new Map<string, Set<string>>();
  for (const condition of branch.conditions) {
    if ('aggregator' in condition) continue;
    const leaf = condition as ConditionTreeLeaf;
    const values = allowedValues(leaf);
    if (!values) continue;
    const keys = new Set(values.map((value) => JSON.stringify(value)));
    const previous = byField.get(leaf.field);
    const intersection = previous ? new Set([...previous].filter((key) => keys.has(key))) : keys;
    if (intersection.size === 0) return true;
    byField.set(leaf.field, intersection);
  }
  return false;
}

/** Layer 23 — short-circuits requests whose filter obviously matches nothing. */
export class EmptyCollectionDecorator extends CollectionDecorator {
  /** Lists go straight down unless their filter obviously matches nothing. */
  override list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    if (matchesNothing(filter.conditionTree)) return Promise.resolve([]);
    return this.readTarget.list(caller, filter, projection);
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    if (!matchesNothing(filter.conditionTree)) await super.update(caller, filter, patch);
  }

  override async delete(caller: Caller, filter: Filter): Promise<void> {
    if (!matchesNothing(filter.conditionTree)) await super.delete(caller, filter);
  }

  override async aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    return matchesNothing(filter.conditionTree)
      ? []
      : super.aggregate(caller, filter, aggregation, limit);
  }
}
