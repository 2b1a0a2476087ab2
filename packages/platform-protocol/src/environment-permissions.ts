import {
  COLLECTION_RIGHTS,
  type ActionCondition,
  type ActionRights,
  type CollectionRight,
  type PlainConditionTree,
  type RoleWithRights,
} from './role-rights';

/** `true` (everyone), `false` (no one) or the ids of the roles that hold the right. */
export type RoleRight = boolean | { roles: number[] };

/** A condition attached to one role (trigger, approval-required or approval conditions). */
export interface RoleCondition<Filter = PlainConditionTree> {
  roleId: number;
  filter: Filter;
}

/** Rights on one collection, as the platform sends them. */
export type CollectionRightsJson = { [right in CollectionRight]: RoleRight };

/** Rights on one action (keyed by the action's display name), as the platform sends them. */
export interface ActionRightsJson<Filter = PlainConditionTree> {
  triggerEnabled: RoleRight;
  triggerConditions?: RoleCondition<Filter>[];
  approvalRequired: RoleRight;
  approvalRequiredConditions?: RoleCondition<Filter>[];
  userApprovalEnabled: RoleRight;
  userApprovalConditions?: RoleCondition<Filter>[];
  selfApprovalEnabled: RoleRight;
}

/** The rights per collection and action of `GET /liana/v4/permissions/environment`. */
export type EnvironmentRightsJson<Filter = PlainConditionTree> = {
  collections: Record<
    string,
    { collection: CollectionRightsJson; actions: Record<string, ActionRightsJson<Filter>> }
  >;
};

/**
 * `GET /liana/v4/permissions/environment` (platform protocol 5.1): `true` in a development
 * environment (every check passes, no approval), otherwise the rights per collection and action.
 */
export type EnvironmentPermissionsJson<Filter = PlainConditionTree> =
  true | EnvironmentRightsJson<Filter>;

/** A collection as the permission builder needs it: its name and its actions' display names. */
export interface CollectionWithActions {
  name: string;
  actionNames: readonly string[];
}

/**
 * Builds `GET /liana/v4/permissions/environment` (platform protocol 5.1) from an environment's
 * collections and the project's roles: each right lists the roles that hold it. A right a role
 * does not mention is granted, except `approvalRequired`. A role's action condition becomes a
 * `{roleId, filter}` entry of the matching `*Conditions` list.
 *
 * @example
 * environmentPermissions([{ name: 'orders', actionNames: ['Refund'] }], [
 *   { id: 1, rights: { collections: { orders: { deleteEnabled: false } } } },
 * ]).collections.orders.collection.deleteEnabled; // { roles: [] }
 */
export function environmentPermissions(
  collections: readonly CollectionWithActions[],
  roles: readonly RoleWithRights[],
): EnvironmentRightsJson {
  const where = (allowed: (role: RoleWithRights) => boolean) => ({
    roles: roles.filter(allowed).map((role) => role.id),
  });
  const result: EnvironmentRightsJson['collections'] = {};
  for (const collection of collections) {
    const rights = {} as CollectionRightsJson;
    for (const right of COLLECTION_RIGHTS) {
      rights[right] = where((role) => role.rights.collections?.[collection.name]?.[right] ?? true);
    }
    const actions: Record<string, ActionRightsJson> = {};
    for (const action of collection.actionNames) {
      const of = (role: RoleWithRights): ActionRights =>
        role.rights.actions?.[collection.name]?.[action] ?? {};
      const conditions = (name: ActionCondition) =>
        roles.flatMap((role) => {
          const filter = of(role)[name];
          return filter ? [{ roleId: role.id, filter }] : [];
        });
      actions[action] = {
        triggerEnabled: where((role) => of(role).triggerEnabled ?? true),
        triggerConditions: conditions('triggerConditions'),
        approvalRequired: where((role) => of(role).approvalRequired ?? false),
        approvalRequiredConditions: conditions('approvalRequiredConditions'),
        userApprovalEnabled: where((role) => of(role).userApprovalEnabled ?? true),
        userApprovalConditions: conditions('userApprovalConditions'),
        selfApprovalEnabled: where((role) => of(role).selfApprovalEnabled ?? true),
      };
    }
    result[collection.name] = { collection: rights, actions };
  }
  return { collections: result };
}
