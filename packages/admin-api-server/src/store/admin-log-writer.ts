import type { Knex } from 'knex';

/** The kinds of change an admin log records. */
export type AdminLogType = 'add' | 'remove' | 'update' | 'initial';
/**
 * What was changed. `activity-logs` (a retention purge, by the system) and `note` (an admin
 * renaming, archiving or deleting someone else's note) and `console` (a team's Console layout,
 * segment or default view) are ours, beyond the published contract's four values.
 */
export type AdminLogResource =
  'user-project' | 'role' | 'team' | 'environment' | 'activity-logs' | 'note' | 'console';
/** Who started the change. */
export type AdminLogInitiator = 'administrator' | 'identityProvider' | 'forestAdmin';

/** An administrative change to record; values follow the contract's `resource` schemas. */
export interface AdminLogInput {
  type: AdminLogType;
  resource: AdminLogResource;
  initiator: AdminLogInitiator;
  /** The administrator who made the change; absent for automatic changes. */
  userId?: number | null;
  previousValue?: Record<string, unknown> | null;
  newValue?: Record<string, unknown> | null;
  createdAt?: Date;
}

/**
 * Records admin logs of a project. Pass the transaction of the change itself so that the change
 * and its log commit together.
 */
export async function insertAdminLogs(
  knex: Knex | Knex.Transaction,
  projectId: number,
  inputs: readonly AdminLogInput[],
): Promise<string[]> {
  if (inputs.length === 0) return [];
  const rows = inputs.map((input) => ({
    project_id: projectId,
    type: input.type,
    resource: input.resource,
    initiator: input.initiator,
    user_id: input.userId ?? null,
    previous_value: input.previousValue == null ? null : JSON.stringify(input.previousValue),
    new_value: input.newValue == null ? null : JSON.stringify(input.newValue),
    ...(input.createdAt ? { created_at: input.createdAt } : {}),
  }));
  const inserted: { id: string }[] = await knex('admin_logs').insert(rows).returning('id');
  return inserted.map((row) => String(row.id));
}
