import type { ActivityLogAction } from './activity-log-actions';

/**
 * One activity log as an agent reports it (`POST /liana/v1/activity-logs`, `{"logs": [...]}`,
 * docs/platform-protocol.md §10): agent-core's reporter sends it, the platform and the testing
 * sandbox read it.
 */
export interface ActivityLogReport {
  /** Unique id: the platform ignores a log it already has, so resending is safe. */
  id: string;
  /** ISO 8601 time of the operation. */
  createdAt: string;
  type: 'read' | 'write';
  action: ActivityLogAction;
  /** Human-readable label, e.g. `listed orders` or the action's name. */
  label: string;
  userId: number;
  renderingId: number | null;
  collectionName: string | null;
  recordIds: string[];
  /**
   * How an operation that can fail once begun (an action) ended; absent on the other logs,
   * which are reported after they succeeded.
   */
  status?: 'completed' | 'failed';
  /** With `failed`: why, in the words the user was shown (at most 1000 characters). */
  errorMessage?: string;
}
