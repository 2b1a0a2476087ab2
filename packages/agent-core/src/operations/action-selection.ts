import type { Collection } from '../toolkit/interfaces/collection';
import type { ConditionTree } from '../toolkit/query/condition-tree/condition-tree';
import type { ActionSelection } from './action-authorization';
import type { OperationCaller, OperationContext } from './context';
import { buildScopedAndUnscoped, type FilterParameters } from './filter';
import { parentRestriction } from './relation';

/** An action with its collection. */
export interface ActionTarget {
  readonly collection: Collection;
  readonly name: string;
}

/** The records an action runs on (§6.9), as the adapter read them from the request. */
export interface ActionRecords {
  readonly filter: FilterParameters;
  /** The records chosen (ids, or all records but some), as a condition. */
  readonly selection: ConditionTree | null;
  /** `parent_collection_name` / `parent_collection_id` / `parent_association_name`, if any. */
  readonly parent: { collectionName: string; id: string; relation: string } | null;
  /** The chosen ids as the activity log shows them. */
  readonly packedIds: readonly string[];
}

/** The selection's filter, built once, with and without the caller's scope. */
export async function selectionFilters(
  context: OperationContext,
  who: OperationCaller,
  action: ActionTarget,
  records: ActionRecords,
): Promise<ActionSelection> {
  const extra = [records.selection];
  if (records.parent) extra.push(await parentRestriction(context, who, records.parent));
  return buildScopedAndUnscoped(context, who, action.collection, records.filter, extra);
}
