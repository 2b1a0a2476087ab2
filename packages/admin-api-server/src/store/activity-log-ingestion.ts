import type { Knex } from 'knex';
import type { ReportedActivityLog } from '../agent-protocol/activity-log-batch';
import { ApiError } from '../errors';
import { insertActivityLogs } from './activity-log-writer';
import { resolveUserTeam } from './model';

/**
 * Stores a batch reported by an agent, once per log id and environment: ids already stored are
 * counted as duplicates, so a retried batch is not duplicated. Each log is attributed to its
 * user, to the team of its rendering (rendering ids are team ids) when the user belongs to it,
 * else to the user's team, and to the environment. The batch commits as one transaction.
 *
 * @throws ApiError 400 naming the log whose user is not a member of the project.
 */
export async function ingestActivityLogs(
  knex: Knex,
  environment: { id: number; projectId: number },
  logs: readonly ReportedActivityLog[],
): Promise<{ accepted: number; duplicates: number }> {
  if (logs.length === 0) return { accepted: 0, duplicates: 0 };
  return knex.transaction(async (trx) => {
    const claimed: { external_id: string }[] = await trx('ingested_activity_logs')
      .insert(logs.map((log) => ({ environment_id: environment.id, external_id: log.id })))
      .onConflict(['environment_id', 'external_id'])
      .ignore()
      .returning('external_id');
    const fresh = new Set(claimed.map((row) => row.external_id));
    const toStore = logs.filter((log) => fresh.delete(log.id));
    const members = new Set<number>(
      (
        await trx('project_memberships')
          .where({ project_id: environment.projectId })
          .whereIn('user_id', [...new Set(toStore.map((log) => log.userId))])
          .select('user_id')
      ).map((row: { user_id: number }) => row.user_id),
    );
    const teams = new Map<string, number>();
    const inputs = [];
    for (const [index, log] of toStore.entries()) {
      if (!members.has(log.userId)) {
        throw new ApiError(
          400,
          'invalid_body',
          `Invalid activity-log batch: log "${log.id}" (logs[${logs.indexOf(log)}].userId) names user ${log.userId}, who is not a member of this project.`,
        );
      }
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
    return { accepted: toStore.length, duplicates: logs.length - toStore.length };
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
