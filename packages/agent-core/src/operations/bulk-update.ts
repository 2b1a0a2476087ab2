import { getCollectionPlan } from './records/collection-plan';
import { ValidationError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import type { ConditionTree } from '../toolkit/query/condition-tree/condition-tree';
import type { RecordData } from '../toolkit/record/record-utils';
import { validateRecord } from '../toolkit/validation/record-validator';
import { markValidated } from '../toolkit/validation/validated';
import { reportActivity } from './activity-log';
import { countIn } from './count';
import { MAX_REPORTED_DELETES, readIdsOrNull, reportRecordChanges } from './record-changes';
import type { OperationCaller, OperationContext } from './context';
import { buildFilter, type FilterParameters } from './filter';
import type { ParsedRequest } from './request';

export interface BulkUpdateRequest {
  /** The filtering parameters of the selection (query string or subset query). */
  readonly filter: FilterParameters;
  /** The records to update (ids, or all records but some), as a condition. */
  readonly selection: ConditionTree | null;
  /** The column values written on every selected record. */
  readonly values: RecordData;
}

/** `count`: the records the update matched; `null` for a collection that is not countable. */
export interface BulkUpdateResult {
  readonly count: number | null;
}

/**
 * Writes the same values on every selected record within the caller's scope (Canopy's addition,
 * agent-http-protocol §8.5.1): needs `edit`, validated as an update by id, one `update` call on
 * the collection, so that hooks and the audit trail see one write of one request. The activity
 * log and the record-change reports carry the ids read just before, at most 1000; below that,
 * their number is the count (no second query).
 */
export async function bulkUpdateRecords(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parse: ParsedRequest<BulkUpdateRequest>,
): Promise<BulkUpdateResult> {
  await context.permissions.assertCollectionRight(who.claims, collection.name, 'edit');
  const { filter: parameters, selection, values } = parse();
  const fields = Object.keys(values);
  if (fields.length === 0) {
    throw new ValidationError(
      `The record data is empty (send at least one attribute of '${collection.name}')`,
    );
  }
  const keys = getCollectionPlan(collection).primaryKeys.filter((key) => key in values);
  if (keys.length > 0) {
    throw new ValidationError(
      `A bulk update cannot write the primary key ${keys.map((key) => `'${key}'`).join(', ')} of '${collection.name}' (every record would get the same id)`,
    );
  }
  validateRecord(collection, values);
  markValidated(values);
  const filter = await buildFilter(context, who, collection, parameters, [selection]);
  // Read before the write: the values written may take the records out of the filter. Fewer
  // ids than the read's limit are all the records selected: their number is the count.
  const read = await readIdsOrNull(context, who, collection, filter);
  const ids = read ?? [];
  let count: number | null = null;
  if (collection.schema.countable) {
    if (read !== null && read.length < MAX_REPORTED_DELETES) count = read.length;
    else {
      const counted = await countIn(who, collection, filter);
      count = 'count' in counted ? counted.count : null;
    }
  }
  await collection.update(who.caller, filter, values);
  reportActivity(context, who, 'update', collection.name, ids);
  reportRecordChanges(context, who, collection.name, 'update', ids, fields);
  return { count };
}
