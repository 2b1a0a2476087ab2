import { getCollectionPlan } from './records/collection-plan';
import { ValidationError } from '../toolkit/errors/canopy-error';
import type { ConditionTree } from '../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../toolkit/query/filter';
import { PaginatedFilter } from '../toolkit/query/paginated-filter';
import { Projection } from '../toolkit/query/projection';
import { reportActivity } from './activity-log';
import { idsToReport, reportRecordChanges } from './record-changes';
import { packRecordId } from './records/record-id';
import { type OperationCaller, type OperationContext, findCollection } from './context';
import { buildFilter, type FilterParameters } from './filter';
import { asToMany, linkedTree, readParentValue, type RelationTarget } from './relation';
import type { ParsedRequest } from './request';

export interface DissociateRequest {
  readonly filter: FilterParameters;
  /** The targets to unlink (ids, or all but some), as a condition. */
  readonly selection: ConditionTree | null;
  /** Whether the selection is empty (no ids and not "all records"): a validation error. */
  readonly empty: boolean;
  /** The id of the parent as the caller sent it, for the activity log. */
  readonly packedParentId: string;
}

/**
 * Unlinks records from a parent through a to-many relation, or deletes them with `deleteMode`
 * (agent-http-protocol §8.11): needs `edit` (`delete` in delete mode) on the target.
 */
export async function dissociateRecords(
  context: OperationContext,
  who: OperationCaller,
  relation: RelationTarget,
  deleteMode: boolean,
  parse: ParsedRequest<DissociateRequest>,
): Promise<void> {
  const field = asToMany(relation);
  const { target } = relation;
  await context.permissions.assertCollectionRight(
    who.claims,
    target.name,
    deleteMode ? 'delete' : 'edit',
  );
  const request = parse();
  if (request.empty) throw new ValidationError('Expected no empty id list');
  const parentValue = await readParentValue(context, who, relation, field);
  const filter = await buildFilter(context, who, target, request.filter, [
    request.selection,
    await linkedTree(context, who, relation, field),
  ]);
  // Targets deleted in delete mode, for the Console (platform protocol §7.1).
  let deleted: string[] = [];
  if (field.type === 'OneToMany') {
    if (deleteMode) {
      deleted = await idsToReport(context, who, target, filter);
      await target.delete(who.caller, filter);
    } else await target.update(who.caller, filter, { [field.originKey]: null });
  } else {
    const targets = await target.list(
      who.caller,
      new PaginatedFilter(filter),
      new Projection(field.foreignKeyTarget).union(getCollectionPlan(target).primaryKeys),
    );
    if (targets.length > 0) {
      const through = findCollection(context, field.throughCollection);
      await through.delete(
        who.caller,
        new Filter({
          conditionTree: ConditionTreeFactory.intersect(
            new ConditionTreeLeaf(field.originKey, 'Equal', parentValue),
            new ConditionTreeLeaf(
              field.foreignKey,
              'In',
              targets.map((row) => row[field.foreignKeyTarget]),
            ),
          ),
        }),
      );
      if (deleteMode) {
        const plan = getCollectionPlan(target);
        deleted = targets.map((row) => packRecordId(plan, row));
        await target.delete(
          who.caller,
          new Filter({ conditionTree: ConditionTreeFactory.matchRecords(target.schema, targets) }),
        );
      }
    }
  }
  reportRecordChanges(
    context,
    who,
    relation.parent.name,
    'update',
    [request.packedParentId],
    [relation.name],
  );
  reportRecordChanges(context, who, target.name, 'delete', deleted);
  reportActivity(
    context,
    who,
    deleteMode ? 'delete' : 'update',
    deleteMode ? target.name : relation.parent.name,
    [request.packedParentId],
  );
}
