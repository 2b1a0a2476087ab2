import type { RoleRight } from '../../platform/permission-source';

/** Whether a platform right (`true`, `false` or `{roles}`) is granted to `roleId`. */
export function isRightGranted(right: RoleRight | undefined, roleId: number | undefined): boolean {
  if (right === true) return true;
  if (right === false || right === undefined || right === null) return false;
  return roleId !== undefined && Array.isArray(right.roles) && right.roles.includes(roleId);
}

/** The role ids a right lists (`[]` for `false`, `null` for `true`: everyone). */
export function rolesOf(right: RoleRight | undefined): number[] | null {
  if (right === true) return null;
  if (!right) return [];
  return right.roles;
}
