import type { Collection } from '../toolkit/interfaces/collection';
import type { ConditionTree } from '../toolkit/query/condition-tree/condition-tree';
import { reportActivity } from './activity-log';
import { idsToReport, reportRecordChanges } from './record-changes';
import type { OperationCaller, OperationContext } from './context';
import { buildFilter, type FilterParameters } from './filter';
import type { ParsedRequest } from './request';

export interface DeleteRequest {
  /** The filtering parameters of the request (query string or subset query). */
  readonly filter: FilterParameters;
  /** The records to delete (ids, or all records but some), as a condition. */
  readonly selection: ConditionTree | null;
  /** The ids as the activity log shows them. */
  readonly packedIds: readonly string[];
}

/**
 * Deletes the selected records within the caller's scope and the request's filters
 * (agent-http-protocol §8.6, §8.7): needs `delete`.
 */
export async function deleteRecords(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parse: ParsedRequest<DeleteRequest>,
): Promise<void> {
  await context.permissions.assertCollectionRight(who.claims, collection.name, 'delete');
  const request = parse();
  const filter = await buildFilter(context, who, collection, request.filter, [request.selection]);
  // A selection without ids ("all records but some"): the ids are read first, for the Console.
  const deleted =
    request.packedIds.length > 0
      ? request.packedIds
      : await idsToReport(context, who, collection, filter);
  await collection.delete(who.caller, filter);
  reportActivity(context, who, 'delete', collection.name, request.packedIds);
  reportRecordChanges(context, who, collection.name, 'delete', deleted);
}
