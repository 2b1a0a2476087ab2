import type { ManagedTeam } from '@canopy/platform-protocol';
import type { Knex } from 'knex';
import { ApiError } from '../../errors';
import { insertAdminLogs } from '../admin-log-writer';
import { publishPlatformEvent } from '../platform-events';
import { namedResourceStore, type NamedRow } from './named-project-resource';
import { assertKnownScopes } from './validate-references';

/** A team as the management API shows it; its id is also the agents' rendering id. */
export type TeamItem = ManagedTeam;

const teams = namedResourceStore<Record<string, unknown>>({
  table: 'teams',
  column: 'scopes',
  resource: 'team',
  assertKnown: assertKnownScopes,
  // A new team has no rendering an agent could have cached; a changed or removed one does, and a
  // removed team also changes its members.
  async announce(trx, projectId, change, id) {
    if (change === 'add') return;
    await publishPlatformEvent(trx, projectId, 'refresh-renderings', { renderingIds: [id] });
    if (change === 'remove') await publishPlatformEvent(trx, projectId, 'refresh-users');
  },
  async assertRemovable(trx, team) {
    const used =
      (await trx('activity_logs').where({ team_id: team.id }).first('id')) ??
      (await trx('notes').where({ team_id: team.id }).first('id'));
    if (used) {
      throw new ApiError(
        409,
        'conflict',
        `Team "${team.name}" is referenced by activity logs or notes and cannot be removed.`,
      );
    }
  },
});

const toItem = ({ id, name, setting }: NamedRow<Record<string, unknown>>): TeamItem => ({
  id,
  name,
  scopes: setting,
});

/** The teams of a project. */
export async function listTeams(knex: Knex, projectId: number): Promise<TeamItem[]> {
  return (await teams.list(knex, projectId)).map(toItem);
}

/** Creates a team with its admin log, in one transaction. */
export async function createTeamWithLog(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  input: { name: string; scopes?: Record<string, unknown> },
): Promise<TeamItem> {
  return toItem(
    await teams.create(knex, projectId, actorId, { name: input.name, setting: input.scopes }),
  );
}

/**
 * Renames a team or replaces its scopes; agents drop the team's rendering cache within a second
 * (`refresh-renderings` with the team id).
 */
export async function updateTeam(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  name: string,
  input: { name?: string; scopes?: Record<string, unknown> },
): Promise<TeamItem> {
  return toItem(
    await teams.update(knex, projectId, actorId, name, { name: input.name, setting: input.scopes }),
  );
}

/** Removes a team that no activity log or note refers to. @throws ApiError 409 otherwise. */
export async function deleteTeam(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  name: string,
): Promise<void> {
  await teams.remove(knex, projectId, actorId, name);
}

/** The charts of a team (rendering `stats`, platform protocol 5.3). @throws ApiError 404. */
export async function teamCharts(
  knex: Knex,
  projectId: number,
  name: string,
): Promise<Record<string, unknown>[]> {
  const row = await knex('teams').where({ project_id: projectId, name }).first('charts');
  if (!row) throw new ApiError(404, 'team_not_found', `Project has no team named "${name}".`);
  return row.charts;
}

/**
 * Replaces the charts a team's `user`-level members may run, with its admin log; agents drop
 * the team's rendering cache within a second (`refresh-renderings`).
 *
 * @throws ApiError 404 for an unknown team.
 */
export async function setTeamCharts(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  name: string,
  charts: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  return knex.transaction(async (trx) => {
    const team = await trx('teams').where({ project_id: projectId, name }).forUpdate().first('id');
    if (!team) throw new ApiError(404, 'team_not_found', `Project has no team named "${name}".`);
    await trx('teams')
      .where({ id: team.id })
      .update({ charts: JSON.stringify(charts) });
    await insertAdminLogs(trx, projectId, [
      {
        type: 'update',
        resource: 'team',
        initiator: 'administrator',
        userId: actorId,
        previousValue: { name },
        newValue: { name },
      },
    ]);
    await publishPlatformEvent(trx, projectId, 'refresh-renderings', { renderingIds: [team.id] });
    return charts;
  });
}
