import type { SessionClaims } from './session-claims';
import { NotFoundError } from '../toolkit/errors/canopy-error';
import { PermissionChecker } from './permissions/permission-checker';
import type { AgentServices } from '../platform/agent-services';
import type { Caller } from '../toolkit/caller';
import type { Collection } from '../toolkit/interfaces/collection';

/**
 * What every operation shares: the agent's services, the permission checks over them and the
 * collections by name (fixed for the life of a router: a restart builds a new context).
 */
export interface OperationContext {
  readonly services: AgentServices;
  readonly permissions: PermissionChecker;
  readonly collections: ReadonlyMap<string, Collection>;
}

/**
 * Who runs an operation: the verified session claims (permissions, scopes and activity logs are
 * the claims') and the caller the data sources see (time zone, request id, client IP).
 */
export interface OperationCaller {
  readonly claims: SessionClaims;
  readonly caller: Caller;
}

/** Builds the shared context of one router (or of the MCP tools of one agent start). */
export function createOperationContext(services: AgentServices): OperationContext {
  return {
    services,
    permissions: new PermissionChecker(services.permissions),
    collections: new Map(services.dataSource.collections.map((c) => [c.name, c])),
  };
}

/** The collection `name`; an unknown name is a {@link NotFoundError} that says so. */
export function findCollection(context: OperationContext, name: string): Collection {
  const collection = context.collections.get(name);
  if (!collection) throw new NotFoundError(`Collection '${name}' does not exist`);
  return collection;
}
