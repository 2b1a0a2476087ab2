import type { AgentActivityAction } from '../../platform/agent-services';
import type { DataRequest } from './data-request';

const WRITES: ReadonlySet<AgentActivityAction> = new Set(['create', 'update', 'delete', 'action']);

/** Reports one operation to the platform's activity log (queued off the request path). */
export function reportActivity(
  data: DataRequest,
  action: AgentActivityAction,
  collectionName: string | null,
  recordIds: readonly string[] = [],
  label?: string,
): void {
  data.context.services.activityLogs.record({
    type: WRITES.has(action) ? 'write' : 'read',
    action,
    label: label ?? `${action} ${collectionName ?? ''}`.trim(),
    userId: data.claims.id,
    renderingId: data.claims.renderingId ?? null,
    collectionName,
    recordIds: [...recordIds],
  });
}

/** The activity of a read with these parameters: search, filter or plain index (§ activity logs). */
export function readActivity(parameters: {
  search?: unknown;
  filters?: unknown;
}): AgentActivityAction {
  if (parameters.search) return 'search';
  if (parameters.filters) return 'filter';
  return 'index';
}
