import type { AgentServices } from '../../platform/agent-services';
import { PermissionChecker } from '../permissions/permission-checker';

/** What every route handler shares: the agent's services and the permission checks over them. */
export interface HttpContext {
  readonly services: AgentServices;
  readonly permissions: PermissionChecker;
}

/** Builds the shared context of one router. */
export function createHttpContext(services: AgentServices): HttpContext {
  return { services, permissions: new PermissionChecker(services.permissions) };
}
