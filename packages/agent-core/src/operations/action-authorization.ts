import type { ActionRightsJson, RoleCondition } from '../platform/permission-source';
import type { Collection } from '../toolkit/interfaces/collection';
import { Aggregation } from '../toolkit/query/aggregation';
import type { ConditionTree } from '../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import type { Filter } from '../toolkit/query/filter';
import { parseConditionTreeJson } from './query/filters';
import { isRightGranted, rolesOf } from './permissions/role-right';
import type { OperationCaller, OperationContext } from './context';
import {
  ApprovalNotAllowedError,
  CustomActionRequiresApprovalError,
  CustomActionTriggerForbiddenError,
  InvalidActionConditionError,
} from './errors/action-errors';

const COUNT = new Aggregation({ operation: 'Count' });

/** The selection of an action, with and without the caller's scope (approvals use the latter). */
export interface ActionSelection {
  scoped: Filter;
  unscoped: Filter;
}

function conditionOf(conditions: RoleCondition[] | undefined, roleId: number | undefined) {
  return conditions?.find((condition) => condition.roleId === roleId)?.filter;
}

function parseCondition(collection: Collection, json: unknown): ConditionTree | null {
  try {
    return parseConditionTreeJson(collection, stripSources(json), 'condition');
  } catch (error) {
    throw new InvalidActionConditionError(error);
  }
}

/** Action conditions may carry a `source` key the agent ignores (platform protocol §5.4). */
function stripSources(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(stripSources);
  if (typeof json !== 'object' || json === null) return json;
  const { source: _source, ...rest } = json as Record<string, unknown>;
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, stripSources(value)]));
}

async function count(
  who: OperationCaller,
  collection: Collection,
  filter: Filter,
): Promise<number> {
  const [row] = await collection.aggregate(who.caller, filter, COUNT);
  return Number(row?.value ?? 0);
}

async function matchesAll(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  filter: Filter,
  condition: unknown,
): Promise<boolean> {
  const tree = parseCondition(collection, condition);
  const total = await count(who, collection, filter);
  const matching = await count(
    who,
    collection,
    filter.override({ conditionTree: ConditionTreeFactory.intersect(filter.conditionTree, tree) }),
  );
  return total === matching;
}

async function rolesAllowedToApprove(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  rights: ActionRightsJson,
  selection: ActionSelection,
): Promise<number[]> {
  const roles = new Set<number>();
  const conditions = rights.userApprovalConditions ?? [];
  for (const roleId of rolesOf(rights.userApprovalEnabled) ?? []) {
    const condition = conditionOf(conditions, roleId);
    if (!condition || (await matchesAll(context, who, collection, selection.unscoped, condition))) {
      roles.add(roleId);
    }
  }
  return [...roles];
}

/**
 * Authorizes an action execution (agent-http-protocol §9.7): the trigger path (trigger right,
 * trigger condition, approval requirement) or, when the request carries a verified `requesterId`,
 * the approval path.
 */
export async function authorizeExecution(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  actionName: string,
  selection: ActionSelection,
  requesterId: number | null,
): Promise<void> {
  const rights = await context.permissions.getActionRights(collection.name, actionName);
  if (rights === null) return;
  if (!rights) throw new CustomActionTriggerForbiddenError();
  const user = await context.permissions.getUser(who.claims);
  const roleId = user?.roleId;

  if (requesterId !== null) {
    const right =
      requesterId === who.claims.id ? rights.selfApprovalEnabled : rights.userApprovalEnabled;
    const condition = conditionOf(rights.userApprovalConditions, roleId);
    const allowed =
      isRightGranted(right, roleId) &&
      (!condition || (await matchesAll(context, who, collection, selection.unscoped, condition)));
    if (!allowed) {
      throw new ApprovalNotAllowedError(
        await rolesAllowedToApprove(context, who, collection, rights, selection),
      );
    }
    return;
  }

  if (!isRightGranted(rights.triggerEnabled, roleId)) throw new CustomActionTriggerForbiddenError();
  const triggerCondition = conditionOf(rights.triggerConditions, roleId);
  if (
    triggerCondition &&
    !(await matchesAll(context, who, collection, selection.scoped, triggerCondition))
  ) {
    throw new CustomActionTriggerForbiddenError();
  }
  if (!isRightGranted(rights.approvalRequired, roleId)) return;
  const approvalCondition = conditionOf(rights.approvalRequiredConditions, roleId);
  if (approvalCondition) {
    const tree = parseCondition(collection, approvalCondition);
    const matching = await count(
      who,
      collection,
      selection.scoped.override({
        conditionTree: ConditionTreeFactory.intersect(selection.scoped.conditionTree, tree),
      }),
    );
    if (matching === 0) return;
  }
  throw new CustomActionRequiresApprovalError(
    await rolesAllowedToApprove(context, who, collection, rights, selection),
  );
}

/**
 * Hooks only need the trigger right (agent-http-protocol §9.7); refused hooks are a plain
 * ForbiddenError.
 */
export async function canTrigger(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  actionName: string,
): Promise<boolean> {
  const rights = await context.permissions.getActionRights(collection.name, actionName);
  if (rights === null) return true;
  if (!rights) return false;
  const user = await context.permissions.getUser(who.claims);
  return isRightGranted(rights.triggerEnabled, user?.roleId);
}
