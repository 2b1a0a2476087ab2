import type {
  ActionRightsJson,
  PermissionSource,
  PlatformUser,
  RenderingPermissionsJson,
} from '../../platform/permission-source';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import type { SessionClaims } from '../auth/session-token';
import { HttpForbiddenError } from '../errors/http-errors';
import { parseConditionTreeJson } from '../query/filters';
import {
  buildContextVariables,
  type ContextVariables,
  injectContextVariables,
} from './context-variables';
import { isRightGranted } from './role-right';

/** The collection rights of platform protocol §5.1 (agent-http-protocol §15.1). */
export type CollectionRight = 'browse' | 'read' | 'edit' | 'add' | 'delete' | 'export';

const RIGHT_KEYS = {
  browse: 'browseEnabled',
  read: 'readEnabled',
  edit: 'editEnabled',
  add: 'addEnabled',
  delete: 'deleteEnabled',
  export: 'exportEnabled',
} as const;

/**
 * Permission checks of agent-http-protocol §15 over the platform's permissions. What does not
 * change between requests is derived once per fetched document (keyed by the document object, so
 * an invalidated and re-fetched document is derived again): users by id, parsed scopes.
 */
export class PermissionChecker {
  private readonly usersById = new WeakMap<PlatformUser[], Map<number, PlatformUser>>();
  private readonly scopes = new WeakMap<
    RenderingPermissionsJson,
    Map<string, ConditionTree | null>
  >();

  constructor(private readonly source: PermissionSource) {}

  /** The platform's record of the caller (role, tags), `undefined` when the platform has none. */
  async getUser(claims: SessionClaims): Promise<PlatformUser | undefined> {
    const users = await this.source.getUsers();
    let byId = this.usersById.get(users);
    if (!byId) {
      byId = new Map(users.map((user) => [Number(user.id), user]));
      this.usersById.set(users, byId);
    }
    return byId.get(claims.id);
  }

  /** Throws `403 Forbidden` unless the caller holds `right` on the collection. */
  async assertCollectionRight(
    claims: SessionClaims,
    collectionName: string,
    right: CollectionRight,
  ): Promise<void> {
    if (!(await this.hasCollectionRight(claims, collectionName, right))) {
      throw new HttpForbiddenError();
    }
  }

  async hasCollectionRight(
    claims: SessionClaims,
    collectionName: string,
    right: CollectionRight,
  ): Promise<boolean> {
    const environment = await this.source.getEnvironmentPermissions();
    if (environment === true) return true;
    const rights = environment.collections[collectionName]?.collection;
    if (!rights) return false;
    const user = await this.getUser(claims);
    return isRightGranted(rights[RIGHT_KEYS[right]], user?.roleId);
  }

  /** Rights of one action (`null` in a development environment: everything allowed). */
  async getActionRights(
    collectionName: string,
    actionName: string,
  ): Promise<ActionRightsJson | null | undefined> {
    const environment = await this.source.getEnvironmentPermissions();
    if (environment === true) return null;
    return environment.collections[collectionName]?.actions[actionName];
  }

  /** The context variables of the caller (user record, tags, team). */
  async getContextVariables(claims: SessionClaims): Promise<ContextVariables> {
    const [user, rendering] = await Promise.all([
      this.getUser(claims),
      this.source.getRenderingPermissions(claims.renderingId),
    ]);
    return buildContextVariables(claims, user, rendering.team);
  }

  /** The rendering's documents (charts, segments) for the caller. */
  getRendering(claims: SessionClaims): Promise<RenderingPermissionsJson> {
    return this.source.getRenderingPermissions(claims.renderingId);
  }

  /**
   * The row-level scope of a collection for the caller (§15.5), context variables injected;
   * `null` when the collection has none.
   */
  async getScope(claims: SessionClaims, collection: Collection): Promise<ConditionTree | null> {
    const rendering = await this.source.getRenderingPermissions(claims.renderingId);
    const raw = rendering.collections?.[collection.name]?.scope;
    if (!raw) return null;
    let cache = this.scopes.get(rendering);
    if (!cache) {
      cache = new Map();
      this.scopes.set(rendering, cache);
    }
    const key = `${collection.name}\u0000${claims.id}`;
    if (cache.has(key)) return cache.get(key) ?? null;
    const user = await this.getUser(claims);
    const variables = buildContextVariables(claims, user, rendering.team);
    const tree = parseConditionTreeJson(
      collection,
      injectContextVariables(raw, variables),
      'scope',
    );
    cache.set(key, tree);
    return tree;
  }

  /** Drops the cached scopes of a rendering (§12). */
  invalidateScopes(renderingId?: number): void {
    this.source.invalidateRenderingPermissions(renderingId);
  }
}
