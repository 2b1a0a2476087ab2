import type {
  ActionRightsJson,
  PermissionSource,
  PlatformUser,
  RenderingPermissionsJson,
} from '../../platform/permission-source';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import type { SessionClaims } from '../session-claims';
import { ForbiddenError, ValidationError } from '../../toolkit/errors/canopy-error';
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

/** What {@link PermissionChecker} answers when a source's value is not known yet. */
const UNKNOWN: unique symbol = Symbol('unknown');

/** A granted right: settled once, handed to every caller that holds it. */
const GRANTED: Promise<void> = Promise.resolve();

/**
 * Permission checks of agent-http-protocol §15 over the platform's permissions. What does not
 * change between requests is derived once per fetched document (keyed by the document object, so
 * an invalidated and re-fetched document is derived again): users by id, parsed scopes.
 *
 * Every answer is a plain promise. The source's answers are promises too, and a source hands out
 * the same promise while its document is cached (the platform client's caches do): the checker
 * keeps what it derived from each one (weakly, by promise), so a request against known documents
 * gets an already settled promise, the same one every time (a granted right, a derived scope).
 */
export class PermissionChecker {
  private readonly usersById = new WeakMap<PlatformUser[], Map<number, PlatformUser>>();
  /** Parsed scopes by rendering document, collection name, then user id. */
  private readonly scopes = new WeakMap<
    Promise<RenderingPermissionsJson>,
    Map<string, Map<number, Promise<ConditionTree | null>>>
  >();
  private readonly settled = new WeakMap<Promise<unknown>, unknown>();

  constructor(private readonly source: PermissionSource) {}

  /** The platform's record of the caller (role, tags), `undefined` when the platform has none. */
  async getUser(claims: SessionClaims): Promise<PlatformUser | undefined> {
    return this.userIn(await this.wait(this.source.getUsers()), claims);
  }

  /**
   * Rejects with a `ForbiddenError` unless the caller holds `right` on the collection. When the
   * permissions are already known, a granted right is the one shared settled promise.
   */
  assertCollectionRight(
    claims: SessionClaims,
    collectionName: string,
    right: CollectionRight,
  ): Promise<void> {
    const granted = this.rightNow(claims, collectionName, right);
    if (granted === true) return GRANTED;
    if (granted === false) return Promise.reject(new ForbiddenError());
    return this.hasCollectionRight(claims, collectionName, right).then((allowed) => {
      if (!allowed) throw new ForbiddenError();
    });
  }

  async hasCollectionRight(
    claims: SessionClaims,
    collectionName: string,
    right: CollectionRight,
  ): Promise<boolean> {
    const environment = await this.wait(this.source.getEnvironmentPermissions());
    if (environment === true) return true;
    const rights = environment.collections[collectionName]?.collection;
    if (!rights) return false;
    const user = await this.getUser(claims);
    return isRightGranted(rights[RIGHT_KEYS[right]], user?.roleId);
  }

  /** {@link hasCollectionRight} from already settled documents; `undefined` when one is not. */
  private rightNow(
    claims: SessionClaims,
    collectionName: string,
    right: CollectionRight,
  ): boolean | undefined {
    const environment = this.now(this.source.getEnvironmentPermissions());
    if (environment === UNKNOWN) return undefined;
    if (environment === true) return true;
    const rights = environment.collections[collectionName]?.collection;
    if (!rights) return false;
    const users = this.now(this.source.getUsers());
    if (users === UNKNOWN) return undefined;
    return isRightGranted(rights[RIGHT_KEYS[right]], this.userIn(users, claims)?.roleId);
  }

  private userIn(users: PlatformUser[], claims: SessionClaims): PlatformUser | undefined {
    let byId = this.usersById.get(users);
    if (!byId) {
      byId = new Map(users.map((user) => [Number(user.id), user]));
      this.usersById.set(users, byId);
    }
    return byId.get(claims.id);
  }

  /** The value of a promise already seen settled, else {@link UNKNOWN}. */
  private now<T>(promise: Promise<T>): T | typeof UNKNOWN {
    return this.settled.has(promise) ? (this.settled.get(promise) as T) : UNKNOWN;
  }

  /** Awaits a source's promise and keeps its value for {@link now}. */
  private async wait<T>(promise: Promise<T>): Promise<T> {
    const value = await promise;
    this.settled.set(promise, value);
    return value;
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
   * `null` when the collection has none. Derived once per rendering document, collection and
   * user: later calls get the same (settled) promise. A failed derivation is not kept.
   */
  getScope(claims: SessionClaims, collection: Collection): Promise<ConditionTree | null> {
    const rendering = this.source.getRenderingPermissions(claims.renderingId);
    let byCollection = this.scopes.get(rendering);
    if (!byCollection) {
      byCollection = new Map();
      this.scopes.set(rendering, byCollection);
    }
    let byUser = byCollection.get(collection.name);
    if (!byUser) {
      byUser = new Map();
      byCollection.set(collection.name, byUser);
    }
    const cached = byUser.get(claims.id);
    if (cached) return cached;
    const scope = this.deriveScope(rendering, claims, collection);
    byUser.set(claims.id, scope);
    const cache = byUser;
    scope.catch(() => {
      if (cache.get(claims.id) === scope) cache.delete(claims.id);
    });
    return scope;
  }

  private async deriveScope(
    renderingPromise: Promise<RenderingPermissionsJson>,
    claims: SessionClaims,
    collection: Collection,
  ): Promise<ConditionTree | null> {
    const rendering = await renderingPromise;
    const raw = rendering.collections?.[collection.name]?.scope;
    if (!raw) return null;
    const user = await this.getUser(claims);
    const variables = buildContextVariables(claims, user, rendering.team);
    return parseConditionTreeJson(collection, injectContextVariables(raw, variables), 'scope');
  }

  /**
   * The condition tree of a segment built in the Console (platform protocol §5.3,
   * `filterSegments`; agent-http-protocol §6.7): looked up by name in the caller's rendering (so
   * only the segments of the caller's team), context variables injected, validated on the
   * collection like a request's filters. `undefined` when the rendering has no such segment, `null`
   * for a segment without a filter (every record). A filter that does not fit the collection is a
   * validation error naming the segment.
   */
  async getFilterSegment(
    claims: SessionClaims,
    collection: Collection,
    name: string,
  ): Promise<ConditionTree | null | undefined> {
    const rendering = await this.source.getRenderingPermissions(claims.renderingId);
    const segments = rendering.collections?.[collection.name]?.filterSegments;
    const segment = Array.isArray(segments)
      ? segments.find((candidate) => candidate?.name === name)
      : undefined;
    if (!segment) return undefined;
    const user = await this.getUser(claims);
    const variables = buildContextVariables(claims, user, rendering.team);
    try {
      return parseConditionTreeJson(
        collection,
        injectContextVariables(segment.filter ?? null, variables),
        'filters',
      );
    } catch (error) {
      throw new ValidationError(
        `Invalid segment "${name}" of '${collection.name}' (built in the Console): ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }

  /** Drops the cached scopes of a rendering (§12). */
  invalidateScopes(renderingId?: number): void {
    this.source.invalidateRenderingPermissions(renderingId);
  }
}
