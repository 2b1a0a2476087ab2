/** Action rights of the signed-in role, in the management API's shape (`actions[collection][action]`). */
import type { QueryClient } from '@tanstack/react-query';
import type { Workspace } from '../../config';

type ActionRights = {
  triggerEnabled?: boolean;
  approvalRequired?: boolean;
  userApprovalEnabled?: boolean;
  selfApprovalEnabled?: boolean;
};

function rightsOf(
  workspace: Workspace,
  role: string | undefined,
  collection: string,
  action: string,
) {
  const roles = workspace.roles as
    Record<string, { actions?: Record<string, Record<string, ActionRights>> }> | undefined;
  return (role ? roles?.[role]?.actions?.[collection]?.[action] : undefined) ?? {};
}

/** Whether the role may trigger the action (an absent right is granted; development allows all). */
export function canTrigger(
  workspace: Workspace,
  role: string | undefined,
  collection: string,
  action: string,
): boolean {
  if (workspace.development) return true;
  return rightsOf(workspace, role, collection, action).triggerEnabled !== false;
}

/** Whether triggering the action asks for an approval (shown on its button; the agent decides). */
export function needsApproval(
  workspace: Workspace,
  role: string | undefined,
  collection: string,
  action: string,
): boolean {
  if (workspace.development) return false;
  return rightsOf(workspace, role, collection, action).approvalRequired === true;
}

/**
 * Reloads what an action may have changed: the collection's lists, counts and records, and the
 * lists of the collections or relations it names in `refresh.relationships` (`invalidated`).
 */
export function invalidateAfterAction(
  queryClient: QueryClient,
  collection: string,
  refresh: readonly string[],
): Promise<void> {
  const names = new Set([collection, ...refresh]);
  return queryClient.invalidateQueries({
    predicate: ({ queryKey }) => {
      const [kind, , target] = queryKey as [string, string, unknown];
      if (kind === 'record' || kind === 'picker') return names.has(String(target));
      if (kind !== 'list' && kind !== 'count') return false;
      const source = target as {
        collection?: string;
        related?: { relation?: string; parent?: string };
      };
      return (
        names.has(String(source?.collection)) ||
        names.has(String(source?.related?.relation)) ||
        source?.related?.parent === collection
      );
    },
  });
}
