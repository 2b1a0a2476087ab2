import { packRecordId } from './records/record-id';
import { getCollectionPlan } from './records/collection-plan';
import { ValidationError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import type { CompositeId, RecordData } from '../toolkit/record/record-utils';
import type { ManyToOneSchema, OneToOneSchema } from '../toolkit/schema/field-schema';
import { validateRecord } from '../toolkit/validation/record-validator';
import { markValidated } from '../toolkit/validation/validated';
import { reportActivity } from './activity-log';
import { reportRecordChanges } from './record-changes';
import { type OperationCaller, type OperationContext, findCollection } from './context';
import { idRecord, linkOneToOne, readTargetValue } from './read-one';
import type { ParsedRequest } from './request';

export interface CreateRequest {
  /** Column values (primary-key values included). */
  readonly values: RecordData;
  /** To-one relations to link: relation name → target id, or `null`. */
  readonly toOne: ReadonlyMap<string, CompositeId | null>;
}

/**
 * Creates one record (agent-http-protocol §8.4): needs `add` (and `edit` on the targets of the
 * one-to-one relations it links). Many-to-one links become the foreign key's value; one-to-one
 * targets are pointed at the new record after it is created. Returns the record with its links.
 */
export async function createRecord(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parse: ParsedRequest<CreateRequest>,
): Promise<RecordData> {
  const { permissions } = context;
  await permissions.assertCollectionRight(who.claims, collection.name, 'add');
  const request = parse();
  const record: RecordData = { ...request.values };
  const linked: RecordData = {};
  const oneToOne: [string, OneToOneSchema, CompositeId | null][] = [];
  for (const [relation, targetId] of request.toOne) {
    const field = collection.schema.fields[relation] as ManyToOneSchema | OneToOneSchema;
    const target = findCollection(context, field.foreignCollection);
    if (field.type === 'ManyToOne') {
      record[field.foreignKey] =
        targetId === null
          ? null
          : await readTargetValue(context, who, target, targetId, field.foreignKeyTarget);
      linked[relation] = targetId === null ? null : idRecord(target, targetId);
    } else {
      oneToOne.push([relation, field, targetId]);
      linked[relation] = targetId === null ? null : idRecord(target, targetId);
    }
  }
  for (const [, field, targetId] of oneToOne) {
    if (targetId !== null) {
      await permissions.assertCollectionRight(who.claims, field.foreignCollection, 'edit');
    }
  }
  // Validated here, where the request enters: the customizer's validation layer trusts it.
  if (Object.keys(record).length > 0) {
    validateRecord(collection, record);
    markValidated(record);
  }
  const [created] = await collection.create(who.caller, [record]);
  if (!created)
    throw new ValidationError(`The data source created no record in '${collection.name}'`);
  for (const [, field, targetId] of oneToOne) {
    if (targetId === null) continue;
    const target = findCollection(context, field.foreignCollection);
    await linkOneToOne(context, who, target, field, created[field.originKeyTarget], targetId);
  }
  const packedId = packRecordId(getCollectionPlan(collection), created);
  reportActivity(context, who, 'create', collection.name, [packedId]);
  reportRecordChanges(
    context,
    who,
    collection.name,
    'create',
    [packedId],
    [...Object.keys(request.values), ...request.toOne.keys()],
  );
  return { ...created, ...linked };
}
