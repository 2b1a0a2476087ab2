/** A member's level in a project, as the platform stores and serves it. */
export const PERMISSION_LEVELS = ['admin', 'editor', 'user', 'developer', 'manager'] as const;

/** One permission level. */
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

/** A member of a project as the management API lists it (`GET /v1/project/{p}/members`). */
export interface Member {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  permissionLevel: PermissionLevel;
  roleName: string | null;
  teamNames: string[];
  tags: Record<string, string>;
  /**
   * In the project's details only: when the account's sign-in, locked after too many failed
   * attempts, unlocks (`null` when it is not locked).
   */
  lockedUntil?: string | null;
}

/**
 * A member of a project as agents read it (`GET /liana/v4/permissions/users`, platform-protocol
 * §5.2). `roleId` is `null` for a member without a role.
 */
export interface PlatformUser {
  id: number;
  firstName: string;
  lastName: string;
  fullName: string;
  email: string;
  permissionLevel: PermissionLevel;
  roleId: number | null;
  tags: Record<string, string>;
}
