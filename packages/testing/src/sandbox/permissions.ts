import type {
  ActionRights,
  CollectionRights,
  PermissionOverrides,
  PlainConditionTree,
  SandboxRole,
  SandboxSchema,
} from './types';

type RoleList = { roles: number[] };

const COLLECTION_RIGHTS = [
  'browseEnabled',
  'readEnabled',
  'editEnabled',
  'addEnabled',
  'deleteEnabled',
  'exportEnabled',
] as const satisfies readonly (keyof CollectionRights)[];

type ConditionKey = 'triggerConditions' | 'approvalRequiredConditions' | 'userApprovalConditions';

/**
 * Builds `GET /liana/v4/permissions/environment` from the agent's schema, the roles and the
 * overrides. A right is granted to a role unless the role or an override denies it; overrides
 * (from the test client) apply to every role and win over the roles' own settings.
 */
export function environmentPermissions(
  schema: SandboxSchema,
  roles: readonly SandboxRole[],
  overrides: PermissionOverrides,
) {
  const collections: Record<string, unknown> = {};
  for (const collection of schema.collections) {
    const override = overrides[collection.name];
    const rights: Record<string, RoleList> = {};
    for (const right of COLLECTION_RIGHTS) {
      rights[right] = rolesWhere(roles, (role) => {
        const forced = override?.collection?.[right];
        return forced ?? role.collections?.[collection.name]?.[right] ?? true;
      });
    }

    const actions: Record<string, unknown> = {};
    for (const action of collection.actions ?? []) {
      const forced = override?.actions?.[action.name] ?? {};
      const of = (role: SandboxRole): ActionRights => ({
        ...role.actions?.[collection.name]?.[action.name],
        ...forced,
      });
      const granted = (key: keyof ActionRights, fallback: boolean) =>
        rolesWhere(roles, (role) => {
          const value = of(role)[key];
          return typeof value === 'boolean' ? value : fallback;
        });
      const conditions = (key: ConditionKey) =>
        roles.flatMap((role) => {
          const filter = of(role)[key] as PlainConditionTree | undefined;
          return filter ? [{ roleId: role.id, filter }] : [];
        });
      actions[action.name] = {
        triggerEnabled: granted('triggerEnabled', true),
        triggerConditions: conditions('triggerConditions'),
        approvalRequired: granted('approvalRequired', false),
        approvalRequiredConditions: conditions('approvalRequiredConditions'),
        userApprovalEnabled: granted('userApprovalEnabled', true),
        userApprovalConditions: conditions('userApprovalConditions'),
        selfApprovalEnabled: granted('selfApprovalEnabled', true),
      };
    }
    collections[collection.name] = { collection: rights, actions };
  }
  return { collections };
}

function rolesWhere(roles: readonly SandboxRole[], allowed: (role: SandboxRole) => boolean) {
  return { roles: roles.filter(allowed).map((role) => role.id) };
}
