import { NotFoundError } from '../toolkit/errors/canopy-error';
import { unpackRecordId } from './records/record-id';
import type { Collection } from '../toolkit/interfaces/collection';
import type { ConditionTree } from '../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../toolkit/query/condition-tree/condition-tree-leaf';
import { PaginatedFilter } from '../toolkit/query/paginated-filter';
import { Projection } from '../toolkit/query/projection';
import type { CompositeId } from '../toolkit/record/record-utils';
import type {
  ManyToManySchema,
  OneToManySchema,
  RelationSchema,
} from '../toolkit/schema/field-schema';
import { type OperationCaller, type OperationContext, findCollection } from './context';
import { readOne } from './read-one';

export type ToManySchema = OneToManySchema | ManyToManySchema;

/** One relation of one parent record: what the relation operations work on. */
export interface RelationTarget {
  readonly parent: Collection;
  readonly parentId: CompositeId;
  readonly name: string;
  readonly field: RelationSchema;
  readonly target: Collection;
}

/** The relation `relation` of the record `parentId` of `collectionName`; not found when unknown. */
export function resolveRelation(
  context: OperationContext,
  collectionName: string,
  parentId: string,
  relation: string,
): RelationTarget {
  const parent = findCollection(context, collectionName);
  const field = parent.schema.fields[relation];
  if (!field || field.type === 'Column') {
    throw new NotFoundError(`Relation '${relation}' does not exist on '${parent.name}'`);
  }
  return {
    parent,
    parentId: unpackRecordId(parent, parentId),
    name: relation,
    field,
    target: findCollection(context, field.foreignCollection),
  };
}

/** The relation's schema when it is to-many; not found otherwise. */
export function asToMany(relation: RelationTarget): ToManySchema {
  if (relation.field.type !== 'OneToMany' && relation.field.type !== 'ManyToMany') {
    throw new NotFoundError(
      `Relation '${relation.name}' of '${relation.parent.name}' is a ${relation.field.type} relation: this route serves one-to-many and many-to-many relations`,
    );
  }
  return relation.field;
}

/** The parent's `originKeyTarget` value; the parent side of to-many routes is not scoped (§15.5). */
export async function readParentValue(
  context: OperationContext,
  who: OperationCaller,
  relation: RelationTarget,
  field: ToManySchema,
): Promise<unknown> {
  const record = await readOne(
    context,
    who,
    relation.parent,
    relation.parentId,
    new Projection(field.originKeyTarget),
    { withScope: false },
  );
  if (!record) throw new NotFoundError();
  return record[field.originKeyTarget];
}

/** The condition on target records "linked to this parent". */
export async function linkedTree(
  context: OperationContext,
  who: OperationCaller,
  relation: RelationTarget,
  field: ToManySchema,
): Promise<ConditionTree> {
  const parentValue = await readParentValue(context, who, relation, field);
  if (field.type === 'OneToMany')
    return new ConditionTreeLeaf(field.originKey, 'Equal', parentValue);
  const through = findCollection(context, field.throughCollection);
  const rows = await through.list(
    who.caller,
    new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf(field.originKey, 'Equal', parentValue),
    }),
    new Projection(field.foreignKey),
  );
  const values = [...new Set(rows.map((row) => row[field.foreignKey]))];
  return values.length === 0
    ? ConditionTreeFactory.MatchNone
    : new ConditionTreeLeaf(field.foreignKeyTarget, 'In', values);
}

/**
 * The condition restricting records of `relation`'s target to those linked to one parent
 * record (actions run from a related-data tab, §6.9).
 */
export async function parentRestriction(
  context: OperationContext,
  who: OperationCaller,
  parent: { collectionName: string; id: string; relation: string },
): Promise<ConditionTree> {
  const relation = resolveRelation(context, parent.collectionName, parent.id, parent.relation);
  return linkedTree(context, who, relation, asToMany(relation));
}
