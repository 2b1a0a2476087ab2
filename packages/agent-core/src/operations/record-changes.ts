import type { RecordChangedEvent } from '@canopy/platform-protocol';
import type { Collection } from '../toolkit/interfaces/collection';
import type { Filter } from '../toolkit/query/filter';
import { Page } from '../toolkit/query/page';
import { PaginatedFilter } from '../toolkit/query/paginated-filter';
import { Projection } from '../toolkit/query/projection';
import type { OperationCaller, OperationContext } from './context';
import { getCollectionPlan } from './records/collection-plan';
import { packRecordId } from './records/record-id';

/** The most field names one change carries (the platform refuses more, protocol §7.1). */
const MAX_FIELDS = 500;

/**
 * The most records a bulk delete or bulk update without explicit ids reports (their ids are read
 * first).
 */
export const MAX_REPORTED_DELETES = 1000;

/** Whether the writes of this context are reported (the agent has a platform). */
export function reportsRecordChanges(context: OperationContext): boolean {
  return context.services.recordChanges !== undefined;
}

/**
 * Reports the records a write changed to the platform, for the Console's live view (platform
 * protocol §7.1): queued, never awaited, nothing without a platform. `fields` are the names of
 * the fields written, never their values; the correlation id is the request's
 * (`x-forest-correlation-id`).
 */
export function reportRecordChanges(
  context: OperationContext,
  who: OperationCaller,
  collectionName: string,
  operation: RecordChangedEvent['operation'],
  recordIds: readonly string[],
  fields: readonly string[] = [],
): void {
  const recorder = context.services.recordChanges;
  if (!recorder) return;
  const { requestId } = who.caller;
  // The platform takes up to 200 characters; the agent's own ids are UUIDs.
  const correlationId = requestId && requestId.length <= 200 ? requestId : undefined;
  const names = fields.slice(0, MAX_FIELDS);
  for (const recordId of recordIds) {
    if (recordId === '') continue;
    recorder.record({
      collection: collectionName,
      recordId,
      userId: who.claims.id,
      operation,
      fields: [...names],
      ...(correlationId ? { correlationId } : {}),
    });
  }
}

/**
 * The packed ids of the records `filter` selects (at most {@link MAX_REPORTED_DELETES}), read
 * before a delete that names no ids; `[]` when nothing is reported, so the read costs nothing
 * without a platform. A failed read is not the delete's failure: nothing is reported then.
 */
export async function idsToReport(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  filter: Filter,
): Promise<string[]> {
  if (!reportsRecordChanges(context)) return [];
  return readReportedIds(context, who, collection, filter);
}

/**
 * The packed ids of the records `filter` selects, at most {@link MAX_REPORTED_DELETES}, read
 * before a write that names no ids (the activity log shows them too, so it reads even without
 * record-change reports). A failed read is not the write's failure: `[]` then.
 */
export async function readReportedIds(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  filter: Filter,
): Promise<string[]> {
  return (await readIdsOrNull(context, who, collection, filter)) ?? [];
}

/** {@link readReportedIds}, with `null` for a failed read (where `[]` would say "none"). */
export async function readIdsOrNull(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  filter: Filter,
): Promise<string[] | null> {
  const plan = getCollectionPlan(collection);
  try {
    const rows = await collection.list(
      who.caller,
      new PaginatedFilter({ ...filter, page: new Page(0, MAX_REPORTED_DELETES) }),
      new Projection(...plan.primaryKeys),
    );
    return rows.map((row) => packRecordId(plan, row));
  } catch {
    // The write itself will say what is wrong, if anything.
    context.services.logger(
      'Debug',
      `Reading the ids to report before a write of '${collection.name}' failed; not reported.`,
    );
    return null;
  }
}
