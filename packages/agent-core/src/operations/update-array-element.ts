import { NotFoundError, ValidationError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import { Projection } from '../toolkit/query/projection';
import type { CompositeId } from '../toolkit/record/record-utils';
import { validateRecord } from '../toolkit/validation/record-validator';
import { markValidated } from '../toolkit/validation/validated';
import { reportActivity } from './activity-log';
import { reportRecordChanges } from './record-changes';
import type { OperationCaller, OperationContext } from './context';
import { buildFilter } from './filter';
import { readOne } from './read-one';
import type { ParsedRequest } from './request';

export interface UpdateArrayElementRequest {
  readonly id: CompositeId;
  readonly packedId: string;
  /** An array column of the collection. */
  readonly field: string;
  readonly position: number;
  readonly value: unknown;
}

/** Replaces one element of an array column of one record (§8.13): needs `edit`. */
export async function updateArrayElement(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parse: ParsedRequest<UpdateArrayElementRequest>,
): Promise<void> {
  await context.permissions.assertCollectionRight(who.claims, collection.name, 'edit');
  const { id, packedId, field, position, value } = parse();
  const record = await readOne(context, who, collection, id, new Projection(field));
  if (!record) throw new NotFoundError();
  const array = Array.isArray(record[field]) ? [...(record[field] as unknown[])] : [];
  if (position >= array.length) throw new ValidationError(`Field '${field}' is too short`);
  array[position] = value;
  const filter = await buildFilter(context, who, collection, {}, [
    ConditionTreeFactory.matchIds(collection.schema, [id]),
  ]);
  const patch = { [field]: array };
  validateRecord(collection, patch);
  markValidated(patch);
  await collection.update(who.caller, filter, patch);
  reportActivity(context, who, 'update', collection.name, [packedId]);
  reportRecordChanges(context, who, collection.name, 'update', [packedId], [field]);
}
