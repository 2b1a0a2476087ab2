import { NotFoundError } from '../toolkit/errors/canopy-error';
import { getCollectionPlan } from './records/collection-plan';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import { PaginatedFilter } from '../toolkit/query/paginated-filter';
import { Projection } from '../toolkit/query/projection';
import type { CompositeId } from '../toolkit/record/record-utils';
import { reportActivity } from './activity-log';
import { reportRecordChanges } from './record-changes';
import { type OperationCaller, type OperationContext, findCollection } from './context';
import { buildFilter } from './filter';
import { asToMany, readParentValue, type RelationTarget } from './relation';
import type { ParsedRequest } from './request';

export interface AssociateRequest {
  readonly targetId: CompositeId;
  /** The id of the parent as the caller sent it, for the activity log. */
  readonly packedParentId: string;
}

/**
 * Links an existing record to a parent through a to-many relation (agent-http-protocol §8.10):
 * needs `edit` on the target, which must exist within its scope (else not found).
 */
export async function associateRecord(
  context: OperationContext,
  who: OperationCaller,
  relation: RelationTarget,
  parse: ParsedRequest<AssociateRequest>,
): Promise<void> {
  const field = asToMany(relation);
  const { target } = relation;
  await context.permissions.assertCollectionRight(who.claims, target.name, 'edit');
  const { targetId, packedParentId } = parse();
  const parentValue = await readParentValue(context, who, relation, field);
  const visible = await buildFilter(context, who, target, {}, [
    ConditionTreeFactory.matchIds(target.schema, [targetId]),
  ]);
  // The target must exist within its scope: associating nothing is not found, not a silent success.
  const [record] = await target.list(
    who.caller,
    new PaginatedFilter({ conditionTree: visible.conditionTree }),
    new Projection(field.type === 'OneToMany' ? field.originKey : field.foreignKeyTarget).union(
      getCollectionPlan(target).primaryKeys,
    ),
  );
  if (!record) {
    throw new NotFoundError(`Record does not exists ('${target.name}' ${targetId.join('|')})`);
  }
  if (field.type === 'OneToMany') {
    await target.update(who.caller, visible, { [field.originKey]: parentValue });
  } else {
    const through = findCollection(context, field.throughCollection);
    await through.create(who.caller, [
      { [field.originKey]: parentValue, [field.foreignKey]: record[field.foreignKeyTarget] },
    ]);
  }
  reportActivity(context, who, 'update', relation.parent.name, [packedParentId]);
  reportRecordChanges(
    context,
    who,
    relation.parent.name,
    'update',
    [packedParentId],
    [relation.name],
  );
}
