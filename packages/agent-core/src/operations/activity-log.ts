import type { ActivityLogInput, AgentActivityAction } from '../platform/agent-services';
import type { OperationCaller, OperationContext } from './context';

const WRITES: ReadonlySet<AgentActivityAction> = new Set(['create', 'update', 'delete', 'action']);

/** Default labels (`index orders`), built once per action and collection. */
const LABELS = new Map<string, string>();

function defaultLabel(action: AgentActivityAction, collectionName: string | null): string {
  const key = `${action} ${collectionName ?? ''}`;
  let label = LABELS.get(key);
  if (label === undefined) {
    label = key.trim();
    if (LABELS.size < 10_000) LABELS.set(key, label);
  }
  return label;
}

/**
 * Reports one operation to the platform's activity log (queued off the request path). A queued
 * log lives until its batch is sent, long enough to be moved to V8's old space: it shares its
 * default label with the other logs of its action and collection.
 */
export function reportActivity(
  context: OperationContext,
  who: OperationCaller,
  action: AgentActivityAction,
  collectionName: string | null,
  recordIds: readonly string[] = [],
  label?: string,
  outcome?: Pick<ActivityLogInput, 'status' | 'errorMessage'>,
): void {
  context.services.activityLogs.record({
    type: WRITES.has(action) ? 'write' : 'read',
    action,
    label: label ?? defaultLabel(action, collectionName),
    userId: who.claims.id,
    renderingId: who.claims.renderingId ?? null,
    collectionName,
    recordIds: [...recordIds],
    ...outcome,
  });
}

/** The activity of a read: search, filter or plain index, as platform protocol §10 names them. */
export function readActivity(parameters: {
  search?: unknown;
  filters?: unknown;
}): AgentActivityAction {
  if (parameters.search) return 'search';
  if (parameters.filters) return 'filter';
  return 'index';
}
