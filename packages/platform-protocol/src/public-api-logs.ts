/**
 * The log items of the public API (spec/admin-api.md): admin-api-server writes them, the Console
 * and API clients read them.
 */

/** A person as public API items name them (`user`). */
export interface PublicApiUser {
  object: 'user';
  id: number;
  email: string;
  username: string;
}

/** One activity log (`GET /v1/activity-logs`, `…/export`). */
export interface ActivityLogItem {
  object: 'activityLog';
  id: string;
  type: 'read' | 'write';
  action: string;
  label?: string;
  recordIds: string[];
  createdAt: string;
  user: PublicApiUser;
  environment: { object: 'environment'; name: string };
  team: { object: 'team'; name: string };
  collection?: { object: 'collection'; name: string };
  /**
   * The outcome of a log opened before its operation and closed after it: `pending` while it
   * runs, `failed` when it failed. Absent for logs reported after a success.
   */
  status?: 'pending' | 'completed' | 'failed';
  /** Why the operation failed, when it did and its reporter said. */
  errorMessage?: string;
  inbox?: { object: 'inbox'; name: string };
  workflow?: {
    object: 'workflow';
    name: string;
    runId: string;
    stepName?: string;
    optionName?: string;
  };
}

/** One admin log (`GET /v1/admin-logs`): a change made to a project's settings. */
export interface AdminLogItem {
  object: 'adminLog';
  id: string;
  type: string;
  resource: string;
  initiator: string;
  createdAt: string;
  /** Absent when no person made the change (the CLI, the system). */
  user?: PublicApiUser;
  previousValue?: unknown;
  newValue?: unknown;
}

/**
 * The filters of the activity-log list and export (`GET /v1/…/activity-logs?…`), as query
 * parameters; the time range travels as `createdAt.gte` / `createdAt.lt`.
 */
export interface ActivityLogFilterParameters {
  userEmail?: string;
  userId?: number;
  teamName?: string;
  collectionName?: string;
  recordId?: string;
  action?: string;
  type?: string;
  /** The outcome: `completed`, `failed` or `pending`. */
  status?: string;
}
