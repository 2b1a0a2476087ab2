import { defaultProjection, withPrimaryKeys } from './query/projection';
import { getCollectionPlan } from './records/collection-plan';
import { ValidationError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import type { CompositeId, RecordData } from '../toolkit/record/record-utils';
import { validateRecord } from '../toolkit/validation/record-validator';
import { markValidated } from '../toolkit/validation/validated';
import { reportActivity } from './activity-log';
import { reportRecordChanges } from './record-changes';
import { assertUnchanged } from './record-etag';
import type { OperationCaller, OperationContext } from './context';
import { buildFilter } from './filter';
import { readOne } from './read-one';
import type { ParsedRequest } from './request';

export interface UpdateRequest {
  readonly id: CompositeId;
  /** The id as the caller sent it (packed), for the activity log. */
  readonly packedId: string;
  /** The column values to change. */
  readonly values: RecordData;
  /** The `If-Match` header, if sent: the update is refused when the record changed (§8.5). */
  readonly ifMatch?: string;
}

/**
 * Updates one record within the caller's scope (agent-http-protocol §8.5): needs `edit`. Returns
 * the record as read back (by its new id when the update changed a primary key), or `null` when
 * the scope no longer holds it.
 */
export async function updateRecord(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parse: ParsedRequest<UpdateRequest>,
): Promise<RecordData | null> {
  await context.permissions.assertCollectionRight(who.claims, collection.name, 'edit');
  const { id, packedId, values, ifMatch } = parse();
  if (Object.keys(values).length === 0) {
    throw new ValidationError(
      `The record data is empty (send at least one attribute of '${collection.name}')`,
    );
  }
  validateRecord(collection, values);
  // Validated here, where the request enters: the customizer's validation layer trusts it.
  markValidated(values);
  if (ifMatch !== undefined) await assertUnchanged(context, who, collection, id, ifMatch);
  const filter = await buildFilter(context, who, collection, {}, [
    ConditionTreeFactory.matchIds(collection.schema, [id]),
  ]);
  await collection.update(who.caller, filter, values);
  const plan = getCollectionPlan(collection);
  const newId = plan.primaryKeys.map((key, index) => (key in values ? values[key] : id[index]));
  const record = await readOne(
    context,
    who,
    collection,
    newId,
    withPrimaryKeys(collection, defaultProjection(collection)),
  );
  reportActivity(context, who, 'update', collection.name, [packedId]);
  reportRecordChanges(context, who, collection.name, 'update', [packedId], Object.keys(values));
  return record;
}
