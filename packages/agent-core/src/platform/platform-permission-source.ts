import type { Logger } from '../toolkit/interfaces/logger';
import { PlatformError } from './platform-error';
import type { PlatformHttpClient } from './platform-http-client';
import type {
  EnvironmentPermissionsJson,
  PermissionSource,
  PlatformUser,
  RenderingPermissionsJson,
} from './permission-source';
import { ResourceCache } from './resource-cache';

/** Default lifetime of cached permissions (the platform also invalidates them by events). */
export const DEFAULT_PERMISSIONS_TTL_MS = 15 * 60 * 1000;

const ENVIRONMENT = '/liana/v4/permissions/environment';
const USERS = '/liana/v4/permissions/users';
const RENDERING = '/liana/v4/permissions/renderings/';

/**
 * Permissions read from the platform (protocol §5): fetched on first use, cached for `ttlMs`,
 * shared between concurrent readers, and dropped by {@link handleEvent} when the platform
 * announces a change (protocol §7). When the platform becomes unreachable, cached values keep
 * serving until they expire.
 */
export class PlatformPermissionSource implements PermissionSource {
  private readonly environment: ResourceCache<'environment', EnvironmentPermissionsJson>;
  private readonly users: ResourceCache<'users', PlatformUser[]>;
  private readonly renderings: ResourceCache<number, RenderingPermissionsJson>;

  constructor(
    private readonly http: PlatformHttpClient,
    private readonly logger: Logger,
    ttlMs = DEFAULT_PERMISSIONS_TTL_MS,
  ) {
    this.environment = new ResourceCache(ttlMs);
    this.users = new ResourceCache(ttlMs);
    this.renderings = new ResourceCache(ttlMs);
  }

  getEnvironmentPermissions(): Promise<EnvironmentPermissionsJson> {
    return this.environment.get('environment', async () => {
      const body = await this.fetch<unknown>(ENVIRONMENT);
      if (body === true) return true;
      if (!isObject(body) || !isObject(body.collections)) {
        throw this.badResponse(ENVIRONMENT, 'true or an object with a "collections" object');
      }
      return body as EnvironmentPermissionsJson;
    });
  }

  getUsers(): Promise<PlatformUser[]> {
    return this.users.get('users', async () => {
      const body = await this.fetch<unknown>(USERS);
      if (!Array.isArray(body) || !body.every((user) => isObject(user) && 'id' in user)) {
        throw this.badResponse(USERS, 'an array of users with an "id"');
      }
      return body as PlatformUser[];
    });
  }

  getRenderingPermissions(renderingId: number): Promise<RenderingPermissionsJson> {
    return this.renderings.get(renderingId, async () => {
      const path = `${RENDERING}${encodeURIComponent(String(renderingId))}`;
      const body = await this.fetch<unknown>(path);
      if (!isObject(body)) throw this.badResponse(path, 'an object with team, collections, stats');
      return {
        team: isObject(body.team) ? body.team : {},
        collections: isObject(body.collections) ? body.collections : {},
        stats: Array.isArray(body.stats) ? body.stats : [],
      } as RenderingPermissionsJson;
    });
  }

  invalidateEnvironmentPermissions(): void {
    this.environment.invalidate();
  }

  invalidateUsers(): void {
    this.users.invalidate();
  }

  invalidateRenderingPermissions(renderingId?: number): void {
    this.renderings.invalidate(renderingId);
  }

  /** Drops every cache (the event stream reopened: events may have been missed). */
  invalidateAll(): void {
    this.invalidateEnvironmentPermissions();
    this.invalidateUsers();
    this.invalidateRenderingPermissions();
  }

  /** Reacts to a platform event (protocol §7); unknown events are ignored. */
  handleEvent(name: string, data: string): void {
    switch (name) {
      case 'refresh-users':
        this.invalidateUsers();
        break;
      case 'refresh-roles':
        this.invalidateEnvironmentPermissions();
        break;
      case 'refresh-renderings': {
        const ids = renderingIdsOf(data);
        if (ids === null) {
          this.logger('Warn', `Ignoring a refresh-renderings event without renderingIds: ${data}`);
          break;
        }
        for (const id of ids) this.invalidateRenderingPermissions(id);
        break;
      }
      default:
        break;
    }
  }

  private async fetch<T>(path: string): Promise<T> {
    return (await this.http.request<T>(path)).body;
  }

  private badResponse(path: string, expected: string): PlatformError {
    const url = this.http.url(path);
    return new PlatformError(
      'PLATFORM_BAD_RESPONSE',
      `The Canopy platform answered GET ${url} with an unexpected body (expected ${expected}).`,
      { url },
    );
  }
}

function renderingIdsOf(data: string): number[] | null {
  try {
    const parsed = JSON.parse(data) as { renderingIds?: unknown };
    if (!Array.isArray(parsed?.renderingIds)) return null;
    return parsed.renderingIds.map(Number).filter(Number.isInteger);
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
