import type { Knex } from 'knex';
import { insertActivityLogs, type ActivityAction } from './activity-log-writer';
import { resolveUserTeam } from './model';

/** One activity log as the agent's reporter sends it (`POST /liana/v1/activity-logs`). */
export interface ReportedActivityLog {
  id: string;
  /** Its place in the batch as sent (defaults to its place in the logs given). */
  index?: number;
  createdAt: Date;
  type: 'read' | 'write';
  action: ActivityAction;
  /** Optional, as in the published contract. */
  label: string | null;
  userId: number;
  renderingId: number | null;
  collectionName: string | null;
  recordIds: string[];
  inbox: { name: string } | null;
  workflow: { name: string; runId: string; stepName?: string; optionName?: string } | null;
  /**
   * How an operation that can fail once begun (an action) ended, when the agent says; kept beside
   * the log like the status of an activity-log request. Null on logs reported after a success.
   */
  status: 'completed' | 'failed' | null;
  /** With `failed`: why, as the user was told (at most 1000 characters). */
  errorMessage: string | null;
}

/** A log refused on its own: its place in the batch, its id when it had one, and why. */
export interface RejectedActivityLog {
  index: number;
  id: string | null;
  reason: string;
}

/** What became of a batch: stored, already stored, or refused (with the reason, per log). */
export interface IngestionResult {
  accepted: number;
  duplicates: number;
  rejected: RejectedActivityLog[];
}

/**
 * Stores a batch reported by an agent, once per log id and environment: ids already stored are
 * counted as duplicates, so a retried batch is not duplicated. The agent's id becomes the log's
 * public id. Each log is attributed to its user, to the team of its rendering (rendering ids are
 * team ids) when the user belongs to it, else to the user's team, and to the environment. The
 * batch commits as one transaction.
 *
 * A log that carries its outcome (`status`, with the reason of a failure) has it stored beside
 * it, where the outcome of an activity-log request lives, so both read the same.
 *
 * Logs of users who are not (or no longer) members of the project are rejected one by one, not
 * the batch: the agent retries a refused batch forever, so one stale log must not block the rest.
 * The batch's `rejected` logs (those that did not validate) are reported with them.
 */
export async function ingestActivityLogs(
  knex: Knex,
  environment: { id: number; projectId: number },
  batch: { logs: readonly ReportedActivityLog[]; rejected?: readonly RejectedActivityLog[] },
): Promise<IngestionResult> {
  const { logs } = batch;
  const refused = [...(batch.rejected ?? [])];
  if (logs.length === 0) return { accepted: 0, duplicates: 0, rejected: refused };
  const indexes = new Map(logs.map((log, position) => [log, log.index ?? position]));
  return knex.transaction(async (trx) => {
    const members = new Set<number>(
      (
        await trx('project_memberships')
          .where({ project_id: environment.projectId })
          .whereIn('user_id', [...new Set(logs.map((log) => log.userId))])
          .select('user_id')
      ).map((row: { user_id: number }) => row.user_id),
    );
    const rejected = logs
      .filter((log) => !members.has(log.userId))
      .map((log) => ({
        index: indexes.get(log)!,
        id: log.id,
        reason: `user ${log.userId} is not a member of this project`,
      }));
    const candidates = logs.filter((log) => members.has(log.userId));
    const claimed: { external_id: string }[] =
      candidates.length === 0
        ? []
        : await trx('ingested_activity_logs')
            .insert(
              candidates.map((log) => ({ environment_id: environment.id, external_id: log.id })),
            )
            .onConflict(['environment_id', 'external_id'])
            .ignore()
            .returning('external_id');
    const fresh = new Set(claimed.map((row) => row.external_id));
    const toStore = candidates.filter((log) => fresh.delete(log.id));
    const teams = new Map<string, number>();
    const inputs = [];
    for (const log of toStore) {
      const key = `${log.userId}:${log.renderingId}`;
      let teamId = teams.get(key);
      if (teamId === undefined) {
        teamId = await attributedTeam(trx, environment.projectId, log.userId, log.renderingId);
        teams.set(key, teamId);
      }
      inputs.push({
        environmentId: environment.id,
        userId: log.userId,
        teamId,
        type: log.type,
        action: log.action,
        label: log.label,
        collectionName: log.collectionName,
        recordIds: log.recordIds,
        inbox: log.inbox,
        workflow: log.workflow,
        createdAt: log.createdAt,
        externalId: log.id,
      });
    }
    await insertActivityLogs(trx, environment.projectId, inputs);
    const outcomes = toStore.filter((log) => log.status !== null);
    if (outcomes.length > 0) {
      await trx('activity_log_requests').insert(
        outcomes.map((log) => ({
          environment_id: environment.id,
          external_id: log.id,
          user_id: log.userId,
          status: log.status,
          error_message: log.errorMessage,
        })),
      );
    }
    return {
      accepted: toStore.length,
      duplicates: candidates.length - toStore.length,
      rejected: [...refused, ...rejected].sort((a, b) => a.index - b.index),
    };
  });
}

/**
 * The team a user's log is attributed to: the team of its rendering (rendering ids are team ids)
 * when the user belongs to it, else the user's first team, else the project's first team.
 */
export async function attributedTeam(
  trx: Knex | Knex.Transaction,
  projectId: number,
  userId: number,
  renderingId: number | null,
): Promise<number> {
  const own =
    renderingId === null ? undefined : await memberTeam(trx, projectId, userId, renderingId);
  const teamId = (own ?? (await resolveUserTeam(trx, projectId, userId)))?.id;
  if (teamId === undefined) throw new Error(`Project ${projectId} has no team.`);
  return teamId;
}

async function memberTeam(
  trx: Knex | Knex.Transaction,
  projectId: number,
  userId: number,
  teamId: number,
): Promise<{ id: number } | undefined> {
  return trx('project_membership_teams as mt')
    .join('project_memberships as m', 'm.id', 'mt.membership_id')
    .where({ 'm.project_id': projectId, 'm.user_id': userId, 'mt.team_id': teamId })
    .first('mt.team_id as id');
}
