import type { AgentServices } from '../../platform/agent-services';
import type { Collection } from '../../toolkit/interfaces/collection';
import { PermissionChecker } from '../permissions/permission-checker';

/** What every route handler shares: the agent's services and the permission checks over them. */
export interface HttpContext {
  readonly services: AgentServices;
  readonly permissions: PermissionChecker;
  /** The collections by name (fixed for the life of a router: a restart builds a new one). */
  readonly collections: ReadonlyMap<string, Collection>;
}

/** Builds the shared context of one router. */
export function createHttpContext(services: AgentServices): HttpContext {
  return {
    services,
    permissions: new PermissionChecker(services.permissions),
    collections: new Map(services.dataSource.collections.map((c) => [c.name, c])),
  };
}
