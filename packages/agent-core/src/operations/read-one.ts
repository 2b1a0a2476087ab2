import { NotFoundError } from '../toolkit/errors/canopy-error';
import { getCollectionPlan } from './records/collection-plan';
import type { Collection } from '../toolkit/interfaces/collection';
import type { ConditionTree } from '../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../toolkit/query/condition-tree/condition-tree-leaf';
import { Page } from '../toolkit/query/page';
import { PaginatedFilter } from '../toolkit/query/paginated-filter';
import { Projection } from '../toolkit/query/projection';
import type { CompositeId, RecordData } from '../toolkit/record/record-utils';
import type { OneToOneSchema } from '../toolkit/schema/field-schema';
import { markValidated } from '../toolkit/validation/validated';
import type { OperationCaller, OperationContext } from './context';
import { buildFilter } from './filter';

/**
 * Reads one record by id within the caller's scope, or `null`. The filter is the one `buildFilter`
 * makes without request parameters (no filters, search, segment or live query): the caller's
 * scope, then the id condition — built here directly, without the intermediate `Filter`. `id`
 * is a validated id (`unpackRecordId`, or the key values of a validated record).
 */
export async function readOne(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  id: CompositeId,
  projection: Projection,
  options: { withScope?: boolean } = {},
): Promise<RecordData | null> {
  const ids = matchId(collection, id);
  const scope =
    options.withScope === false ? null : await context.permissions.getScope(who.claims, collection);
  const filter = new PaginatedFilter({
    conditionTree: scope ? ConditionTreeFactory.intersect(scope, ids) : ids,
    page: FIRST,
  });
  const [record] = await collection.list(who.caller, filter, projection);
  return record ?? null;
}

/**
 * `pk = value` for a single primary key that supports `Equal` and `In` (the condition `matchIds`
 * builds, without its arrays); any other case, errors included, goes through `matchIds`.
 */
function matchId(collection: Collection, id: CompositeId): ConditionTree {
  const { primaryKeys } = getCollectionPlan(collection);
  if (primaryKeys.length === 1 && id.length === 1) {
    const key = primaryKeys[0] as string;
    const field = collection.schema.fields[key];
    if (
      field?.type === 'Column' &&
      field.filterOperators.has('Equal') &&
      field.filterOperators.has('In')
    ) {
      // The id was unpacked and checked against the key's type where the request entered.
      return markValidated(new ConditionTreeLeaf(key, 'Equal', id[0]));
    }
  }
  return ConditionTreeFactory.matchIds(collection.schema, [id]);
}

/** The window of a read by id (a `Page` is never mutated: one is shared). */
const FIRST = new Page(0, 1);

/** The record `{pk: value}` of an id. */
export function idRecord(collection: Collection, id: CompositeId): RecordData {
  const plan = getCollectionPlan(collection);
  return Object.fromEntries(plan.primaryKeys.map((key, index) => [key, id[index]]));
}

/** The value of `field` on the target record `id` (its key when `field` is the primary key). */
export async function readTargetValue(
  context: OperationContext,
  who: OperationCaller,
  target: Collection,
  id: CompositeId,
  field: string,
): Promise<unknown> {
  const plan = getCollectionPlan(target);
  if (plan.primaryKeys.length === 1 && plan.primaryKeys[0] === field) return id[0];
  const record = await readOne(context, who, target, id, new Projection(field));
  if (!record) throw new NotFoundError(`Record does not exists ('${target.name}' ${id.join('|')})`);
  return record[field];
}

/**
 * Points the one-to-one target `targetId` at `originValue`, after unlinking the target that
 * currently points there (both within the target's scope), as §8.4 step 6 and §8.12 say.
 */
export async function linkOneToOne(
  context: OperationContext,
  who: OperationCaller,
  target: Collection,
  field: OneToOneSchema,
  originValue: unknown,
  targetId: CompositeId | null,
): Promise<void> {
  const current = await buildFilter(context, who, target, {}, [
    ConditionTreeFactory.fromPlainObject({
      field: field.originKey,
      operator: 'Equal',
      value: originValue,
    }),
  ]);
  const existing = await target.list(
    who.caller,
    new PaginatedFilter({
      conditionTree: current.conditionTree,
      search: current.search,
      searchExtended: current.searchExtended,
      segment: current.segment,
      liveQuerySegment: current.liveQuerySegment,
      page: new Page(0, 1),
    }),
    new Projection(...getCollectionPlan(target).primaryKeys),
  );
  if (existing.length > 0) {
    await target.update(who.caller, current, { [field.originKey]: null });
  }
  if (targetId === null) return;
  const chosen = await buildFilter(context, who, target, {}, [
    ConditionTreeFactory.matchIds(target.schema, [targetId]),
  ]);
  await target.update(who.caller, chosen, { [field.originKey]: originValue });
}
