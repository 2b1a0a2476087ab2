import type {
  ActionRightsJson as ProtocolActionRightsJson,
  CollectionRightsJson as ProtocolCollectionRightsJson,
  EnvironmentPermissionsJson as ProtocolEnvironmentPermissionsJson,
  PlatformUser as ProtocolPlatformUser,
  RoleCondition as ProtocolRoleCondition,
  RoleRight as ProtocolRoleRight,
} from '@canopy/platform-protocol';
import type { PlainConditionTree } from '../toolkit/query/condition-tree/condition-tree';
import type { PermissionLevel } from '../toolkit/caller';

/**
 * Wire shapes of the platform's permission resources (platform protocol §5) and the interface
 * through which the HTTP layer reads them. The platform client implements it (fetching, caching,
 * invalidating on server-sent events); the permission checks of the HTTP layer consume it.
 */

/** `true` (everyone), `false` (no one) or the ids of the roles that hold the right. */
export type RoleRight = ProtocolRoleRight;

/** A condition attached to one role (trigger, approval-required or approval conditions). */
export type RoleCondition = ProtocolRoleCondition<PlainConditionTree>;

/** Rights on one collection, as the platform sends them. */
export type CollectionRightsJson = ProtocolCollectionRightsJson;

/** Rights on one action (keyed by the action's display name). */
export type ActionRightsJson = ProtocolActionRightsJson<PlainConditionTree>;

/**
 * `GET /liana/v4/permissions/environment`: `true` in a development environment (every check
 * passes, no approval), otherwise the rights per collection and action.
 */
export type EnvironmentPermissionsJson = ProtocolEnvironmentPermissionsJson<PlainConditionTree>;

/**
 * One entry of `GET /liana/v4/permissions/users` (the wire type of @canopy/platform-protocol), as
 * the agent reads it: the levels a caller may have, and the role its rights are checked against.
 */
export type PlatformUser = Omit<ProtocolPlatformUser, 'permissionLevel' | 'roleId'> & {
  permissionLevel: PermissionLevel;
  roleId: number;
};

/** A chart the platform lets non-admin users of a rendering display (compared by its keys). */
export type RenderingChartJson = Record<string, unknown> & { type: string };

/** A segment built in the Console for the rendering's team (platform protocol §5.3). */
export interface RenderingFilterSegmentJson {
  id: string;
  name: string;
  filter: PlainConditionTree | null;
}

/**
 * `GET /liana/v4/permissions/renderings/<id>`: team, row-level scopes, SQL segments, segments
 * built in the Console (`filterSegments`), charts.
 */
export interface RenderingPermissionsJson {
  team: { id?: number; name?: string; [key: string]: unknown };
  collections: Record<
    string,
    {
      scope: PlainConditionTree | null;
      segments: string[];
      liveQuerySegments?: { connectionName: string; query: string }[];
      filterSegments?: RenderingFilterSegmentJson[];
    }
  >;
  stats: RenderingChartJson[];
}

/**
 * Where permission checks read the platform's permissions. Implementations cache and share
 * concurrent fetches; `invalidate*` drop a cache so the next read fetches again (used after a
 * failed check, before denying, and by server-sent events).
 */
export interface PermissionSource {
  getEnvironmentPermissions(): Promise<EnvironmentPermissionsJson>;
  getUsers(): Promise<PlatformUser[]>;
  getRenderingPermissions(renderingId: number): Promise<RenderingPermissionsJson>;
  invalidateEnvironmentPermissions(): void;
  invalidateUsers(): void;
  invalidateRenderingPermissions(renderingId?: number): void;
}
