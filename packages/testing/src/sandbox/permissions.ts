import {
  environmentPermissions as buildPermissions,
  type RoleRights,
} from '@canopy/platform-protocol';
import type { PermissionOverrides, SandboxRole, SandboxSchema } from './types';

/**
 * Builds `GET /liana/v4/permissions/environment` from the agent's schema, the roles and the
 * overrides, with the platform server's own builder. A right is granted to a role unless the role
 * or an override denies it; overrides (from the test client) apply to every role and win over the
 * roles' own settings.
 */
export function environmentPermissions(
  schema: SandboxSchema,
  roles: readonly SandboxRole[],
  overrides: PermissionOverrides,
) {
  return buildPermissions(
    schema.collections.map((collection) => ({
      name: collection.name,
      actionNames: (collection.actions ?? []).map((action) => action.name),
    })),
    roles.map((role) => ({ id: role.id, rights: withOverrides(role, overrides) })),
  );
}

/** A role's rights with every override laid over them (an override's absent right keeps the role's). */
function withOverrides(role: SandboxRole, overrides: PermissionOverrides): RoleRights {
  const collections = { ...role.collections };
  const actions = { ...role.actions };
  for (const [name, override] of Object.entries(overrides)) {
    if (override.collection) collections[name] = over(collections[name], override.collection);
    if (override.actions) {
      const own = { ...actions[name] };
      for (const [action, forced] of Object.entries(override.actions)) {
        own[action] = over(own[action], forced);
      }
      actions[name] = own;
    }
  }
  return { collections, actions };
}

function over<T extends object>(base: T | undefined, forced: T): T {
  const defined = Object.entries(forced).filter(([, value]) => value !== undefined);
  return { ...base, ...Object.fromEntries(defined) } as T;
}
