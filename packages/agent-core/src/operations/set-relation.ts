import { NotFoundError } from '../toolkit/errors/canopy-error';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import { Projection } from '../toolkit/query/projection';
import type { CompositeId } from '../toolkit/record/record-utils';
import type { ManyToOneSchema, OneToOneSchema } from '../toolkit/schema/field-schema';
import { reportActivity } from './activity-log';
import { reportRecordChanges } from './record-changes';
import type { OperationCaller, OperationContext } from './context';
import { buildFilter } from './filter';
import { linkOneToOne, readOne, readTargetValue } from './read-one';
import type { RelationTarget } from './relation';

export interface SetRelationRequest {
  /** The record to link, or `null` to unlink. */
  readonly targetId: CompositeId | null;
  /** The id of the parent as the caller sent it, for the activity log. */
  readonly packedParentId: string;
}

/**
 * Sets (or clears) a to-one relation of a record (agent-http-protocol §8.12): a many-to-one
 * link changes the parent's foreign key (needs `edit` on the parent), a one-to-one link points
 * the target at the parent (needs `edit` on the target). The request is parsed before the right
 * is checked (the right depends on the relation's kind only, the body decides nothing).
 */
export async function setRelation(
  context: OperationContext,
  who: OperationCaller,
  relation: RelationTarget & { field: ManyToOneSchema | OneToOneSchema },
  request: SetRelationRequest,
): Promise<void> {
  const { field, target, parent } = relation;
  const { targetId } = request;
  if (field.type === 'ManyToOne') {
    await context.permissions.assertCollectionRight(who.claims, parent.name, 'edit');
    const value =
      targetId === null
        ? null
        : await readTargetValue(context, who, target, targetId, field.foreignKeyTarget);
    const filter = await buildFilter(context, who, parent, {}, [
      ConditionTreeFactory.matchIds(parent.schema, [relation.parentId]),
    ]);
    await parent.update(who.caller, filter, { [field.foreignKey]: value });
  } else {
    await context.permissions.assertCollectionRight(who.claims, target.name, 'edit');
    const record = await readOne(
      context,
      who,
      parent,
      relation.parentId,
      new Projection(field.originKeyTarget),
      { withScope: false },
    );
    if (!record) throw new NotFoundError();
    await linkOneToOne(context, who, target, field, record[field.originKeyTarget], targetId);
  }
  reportActivity(context, who, 'update', parent.name, [request.packedParentId]);
  reportRecordChanges(
    context,
    who,
    parent.name,
    'update',
    [request.packedParentId],
    [relation.name],
  );
}

/** Narrows a relation to a to-one relation; not found otherwise. */
export function asToOne(
  relation: RelationTarget,
): RelationTarget & { field: ManyToOneSchema | OneToOneSchema } {
  const { field } = relation;
  if (field.type !== 'ManyToOne' && field.type !== 'OneToOne') {
    throw new NotFoundError(
      `Relation '${relation.name}' of '${relation.parent.name}' is a ${field.type} relation: this route serves many-to-one and one-to-one relations`,
    );
  }
  return relation as RelationTarget & { field: ManyToOneSchema | OneToOneSchema };
}
