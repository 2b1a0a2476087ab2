import type { Knex } from 'knex';
import { ApiError } from '../../errors';
import { insertAdminLogs } from '../admin-log-writer';
import { publishPlatformEvent } from '../platform-events';
import { assertKnownScopes } from './validate-references';

/** A team as the management API shows it; its id is also the agents' rendering id. */
export interface TeamItem {
  id: number;
  name: string;
  /** Row-level scope (a condition tree) per collection. */
  scopes: Record<string, unknown>;
}

type TeamRecord = { id: number; name: string; scopes: Record<string, unknown> };

const toItem = (row: TeamRecord): TeamItem => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes ?? {},
});

async function findTeam(
  trx: Knex.Transaction,
  projectId: number,
  name: string,
): Promise<TeamRecord> {
  const row = await trx('teams')
    .where({ project_id: projectId, name })
    .forUpdate()
    .first('id', 'name', 'scopes');
  if (!row) throw new ApiError(404, 'team_not_found', `Project has no team named "${name}".`);
  return row;
}

/** The teams of a project. */
export async function listTeams(knex: Knex, projectId: number): Promise<TeamItem[]> {
  return (
    await knex('teams')
      .where({ project_id: projectId })
      .orderBy('id')
      .select('id', 'name', 'scopes')
  ).map(toItem);
}

/** Creates a team with its admin log, in one transaction. */
export async function createTeamWithLog(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  input: { name: string; scopes?: Record<string, unknown> },
): Promise<TeamItem> {
  return knex.transaction(async (trx) => {
    const scopes = input.scopes ?? {};
    await assertKnownScopes(trx, projectId, scopes);
    const [row] = await trx('teams')
      .insert({ project_id: projectId, name: input.name, scopes: JSON.stringify(scopes) })
      .onConflict(['project_id', 'name'])
      .ignore()
      .returning(['id', 'name', 'scopes']);
    if (!row) throw new ApiError(409, 'conflict', `A team named "${input.name}" already exists.`);
    await insertAdminLogs(trx, projectId, [
      {
        type: 'add',
        resource: 'team',
        initiator: 'administrator',
        userId: actorId,
        newValue: { name: row.name },
      },
    ]);
    return toItem(row);
  });
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
  return knex.transaction(async (trx) => {
    const before = await findTeam(trx, projectId, name);
    if (input.scopes) await assertKnownScopes(trx, projectId, input.scopes);
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.scopes !== undefined ? { scopes: JSON.stringify(input.scopes) } : {}),
    };
    const [row] =
      Object.keys(changes).length === 0
        ? [before]
        : await trx('teams')
            .where({ id: before.id })
            .update(changes)
            .returning(['id', 'name', 'scopes']);
    await insertAdminLogs(trx, projectId, [
      {
        type: 'update',
        resource: 'team',
        initiator: 'administrator',
        userId: actorId,
        previousValue: { name: before.name },
        newValue: { name: row.name },
      },
    ]);
    await publishPlatformEvent(trx, projectId, 'refresh-renderings', { renderingIds: [before.id] });
    return toItem(row);
  });
}

/** Removes a team that no activity log or note refers to. @throws ApiError 409 otherwise. */
export async function deleteTeam(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  name: string,
): Promise<void> {
  await knex.transaction(async (trx) => {
    const before = await findTeam(trx, projectId, name);
    const used =
      (await trx('activity_logs').where({ team_id: before.id }).first('id')) ??
      (await trx('notes').where({ team_id: before.id }).first('id'));
    if (used) {
      throw new ApiError(
        409,
        'conflict',
        `Team "${name}" is referenced by activity logs or notes and cannot be removed.`,
      );
    }
    await trx('teams').where({ id: before.id }).delete();
    await insertAdminLogs(trx, projectId, [
      {
        type: 'remove',
        resource: 'team',
        initiator: 'administrator',
        userId: actorId,
        previousValue: { name: before.name },
      },
    ]);
    await publishPlatformEvent(trx, projectId, 'refresh-renderings', { renderingIds: [before.id] });
    await publishPlatformEvent(trx, projectId, 'refresh-users');
  });
}
