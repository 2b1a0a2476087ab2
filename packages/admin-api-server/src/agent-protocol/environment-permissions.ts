import type { DeclaredCollection } from '../store/environment-schema';
import {
  COLLECTION_RIGHTS,
  type ActionRights,
  type RoleWithRights,
} from '../store/model/role-rights';

type RoleList = { roles: number[] };

/**
 * Builds `GET /liana/v4/permissions/environment` (platform protocol 5.1) from the collections the
 * environment's agent declared and the project's roles: each right lists the roles that hold it.
 * A right a role does not mention is granted, except `approvalRequired`. A role's action condition
 * becomes a `{roleId, filter}` entry of the matching `*Conditions` list.
 */
export function environmentPermissions(
  collections: readonly DeclaredCollection[],
  roles: readonly RoleWithRights[],
) {
  const where = (allowed: (role: RoleWithRights) => boolean): RoleList => ({
    roles: roles.filter(allowed).map((role) => role.id),
  });
  const result: Record<string, unknown> = {};
  for (const collection of collections) {
    const rights: Record<string, RoleList> = {};
    for (const right of COLLECTION_RIGHTS) {
      rights[right] = where((role) => role.rights.collections?.[collection.name]?.[right] ?? true);
    }
    const actions: Record<string, unknown> = {};
    for (const action of collection.actionNames) {
      const of = (role: RoleWithRights): ActionRights =>
        role.rights.actions?.[collection.name]?.[action] ?? {};
      const conditions = (name: keyof ActionRights & `${string}Conditions`) =>
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
