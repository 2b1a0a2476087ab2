import type { ActionRightsJson, RoleCondition } from '../../platform/permission-source';
import type { Collection } from '../../toolkit/interfaces/collection';
import { Aggregation } from '../../toolkit/query/aggregation';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import type { Filter } from '../../toolkit/query/filter';
import { parseConditionTreeJson } from '../query/filters';
import { isRightGranted, rolesOf } from '../permissions/role-right';
import type { DataRequest } from '../request/data-request';
import {
  ApprovalNotAllowedError,
  CustomActionRequiresApprovalError,
  CustomActionTriggerForbiddenError,
  InvalidActionConditionError,
} from './action-errors';

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

async function count(data: DataRequest, collection: Collection, filter: Filter): Promise<number> {
  const [row] = await collection.aggregate(data.caller, filter, COUNT);
  return Number(row?.value ?? 0);
}

async function matchesAll(
  data: DataRequest,
  collection: Collection,
  filter: Filter,
  condition: unknown,
): Promise<boolean> {
  const tree = parseCondition(collection, condition);
  const total = await count(data, collection, filter);
  const matching = await count(
    data,
    collection,
    filter.override({ conditionTree: ConditionTreeFactory.intersect(filter.conditionTree, tree) }),
  );
  return total === matching;
}

async function rolesAllowedToApprove(
  data: DataRequest,
  collection: Collection,
  rights: ActionRightsJson,
  selection: ActionSelection,
): Promise<number[]> {
  const roles = new Set<number>();
  const conditions = rights.userApprovalConditions ?? [];
  for (const roleId of rolesOf(rights.userApprovalEnabled) ?? []) {
    const condition = conditionOf(conditions, roleId);
    if (!condition || (await matchesAll(data, collection, selection.unscoped, condition))) {
      roles.add(roleId);
    }
  }
  return [...roles];
}

/**
 * Authorizes an action execution (§9.7): the trigger path (trigger right, trigger condition,
 * approval requirement) or, when the request carries a verified `requesterId`, the approval path.
 */
export async function authorizeExecution(
  data: DataRequest,
  collection: Collection,
  actionName: string,
  selection: ActionSelection,
  requesterId: number | null,
): Promise<void> {
  const rights = await data.context.permissions.getActionRights(collection.name, actionName);
  if (rights === null) return;
  if (!rights) throw new CustomActionTriggerForbiddenError();
  const user = await data.context.permissions.getUser(data.claims);
  const roleId = user?.roleId;

  if (requesterId !== null) {
    const right =
      requesterId === data.claims.id ? rights.selfApprovalEnabled : rights.userApprovalEnabled;
    const condition = conditionOf(rights.userApprovalConditions, roleId);
    const allowed =
      isRightGranted(right, roleId) &&
      (!condition || (await matchesAll(data, collection, selection.unscoped, condition)));
    if (!allowed) {
      throw new ApprovalNotAllowedError(
        await rolesAllowedToApprove(data, collection, rights, selection),
      );
    }
    return;
  }

  if (!isRightGranted(rights.triggerEnabled, roleId)) throw new CustomActionTriggerForbiddenError();
  const triggerCondition = conditionOf(rights.triggerConditions, roleId);
  if (
    triggerCondition &&
    !(await matchesAll(data, collection, selection.scoped, triggerCondition))
  ) {
    throw new CustomActionTriggerForbiddenError();
  }
  if (!isRightGranted(rights.approvalRequired, roleId)) return;
  const approvalCondition = conditionOf(rights.approvalRequiredConditions, roleId);
  if (approvalCondition) {
    const tree = parseCondition(collection, approvalCondition);
    const matching = await count(
      data,
      collection,
      selection.scoped.override({
        conditionTree: ConditionTreeFactory.intersect(selection.scoped.conditionTree, tree),
      }),
    );
    if (matching === 0) return;
  }
  throw new CustomActionRequiresApprovalError(
    await rolesAllowedToApprove(data, collection, rights, selection),
  );
}

/** Hooks only need the trigger right (§9.7); refused hooks are a plain 403 ForbiddenError. */
export async function canTrigger(
  data: DataRequest,
  collection: Collection,
  actionName: string,
): Promise<boolean> {
  const rights = await data.context.permissions.getActionRights(collection.name, actionName);
  if (rights === null) return true;
  if (!rights) return false;
  const user = await data.context.permissions.getUser(data.claims);
  return isRightGranted(rights.triggerEnabled, user?.roleId);
}
