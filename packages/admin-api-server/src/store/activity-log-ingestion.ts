import type { Knex } from 'knex';
import { insertActivityLogs, type ActivityAction } from './activity-log-writer';
import { resolveUserTeam } from './model';

/** One activity log as the agent's reporter sends it (`POST /liana/v1/activity-logs`). */
export interface ReportedActivityLog {
  id: string;
  createdAt: Date;
  type: 'read' | 'write';
  action: ActivityAction;
  label: string;
  userId: number;
  renderingId: number | null;
  collectionName: string | null;
  recordIds: string[];
}

/** What became of a batch: stored, already stored, or refused (with the reason, per log id). */
export interface IngestionResult {
  accepted: number;
  duplicates: number;
  rejected: { id: string; reason: string }[];
}

/**
 * Stores a batch reported by an agent, once per log id and environment: ids already stored are
 * counted as duplicates, so a retried batch is not duplicated. Each log is attributed to its
 * user, to the team of its rendering (rendering ids are team ids) when the user belongs to it,
 * else to the user's team, and to the environment. The batch commits as one transaction.
 *
 * Logs of users who are not (or no longer) members of the project are rejected one by one, not
 * the batch: the agent retries a refused batch forever, so one stale log must not block the rest.
 */
export async function ingestActivityLogs(
  knex: Knex,
  environment: { id: number; projectId: number },
  logs: readonly ReportedActivityLog[],
): Promise<IngestionResult> {
  if (logs.length === 0) return { accepted: 0, duplicates: 0, rejected: [] };
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
    for (const [index, log] of toStore.entries()) {
      const key = `${log.userId}:${log.renderingId}`;
      let teamId = teams.get(key);
      if (teamId === undefined) {
        const own =
          log.renderingId === null
            ? undefined
            : await memberTeam(trx, environment.projectId, log.userId, log.renderingId);
        teamId = (own ?? (await resolveUserTeam(trx, environment.projectId, log.userId)))?.id;
        if (teamId === undefined) throw new Error(`Project ${environment.projectId} has no team.`);
        teams.set(key, teamId);
      }
      inputs[index] = {
        environmentId: environment.id,
        userId: log.userId,
        teamId,
        type: log.type,
        action: log.action,
        label: log.label,
        collectionName: log.collectionName,
        recordIds: log.recordIds,
        createdAt: log.createdAt,
      };
    }
    await insertActivityLogs(trx, environment.projectId, inputs);
    return {
      accepted: toStore.length,
      duplicates: candidates.length - toStore.length,
      rejected,
    };
  });
}

async function memberTeam(
  trx: Knex.Transaction,
  projectId: number,
  userId: number,
  teamId: number,
): Promise<{ id: number } | undefined> {
  return trx('project_membership_teams as mt')
    .join('project_memberships as m', 'm.id', 'mt.membership_id')
    .where({ 'm.project_id': projectId, 'm.user_id': userId, 'mt.team_id': teamId })
    .first('mt.team_id as id');
}
