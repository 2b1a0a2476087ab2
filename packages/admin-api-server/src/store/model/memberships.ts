import type { PermissionLevel } from '@canopy/platform-protocol';
import type { Knex } from 'knex';
import { DEFAULT_TEAM_NAME } from './teams';

/** Permission levels of a project member (@canopy/platform-protocol); only `admin` may create application tokens. */
export { PERMISSION_LEVELS, type PermissionLevel } from '@canopy/platform-protocol';

/** Makes a user a member of a project with a permission level and teams (by name). */
export async function addProjectMember(
  knex: Knex,
  input: {
    projectId: number;
    userId: number;
    permissionLevel: PermissionLevel;
    teamNames?: string[];
  },
): Promise<void> {
  await knex.transaction(async (trx) => {
    const [membership] = await trx('project_memberships')
      .insert({
        project_id: input.projectId,
        user_id: input.userId,
        permission_level: input.permissionLevel,
      })
      .onConflict(['project_id', 'user_id'])
      .merge({ permission_level: input.permissionLevel, updated_at: trx.fn.now() })
      .returning(['id']);
    const names = input.teamNames ?? [DEFAULT_TEAM_NAME];
    if (names.length === 0) return;
    const teams: { id: number; name: string }[] = await trx('teams')
      .where({ project_id: input.projectId })
      .whereIn('name', names)
      .select('id', 'name');
    const missing = names.filter((name) => !teams.some((team) => team.name === name));
    if (missing.length > 0) {
      throw new Error(`Project ${input.projectId} has no team named ${missing.join(', ')}.`);
    }
    await trx('project_membership_teams')
      .insert(teams.map((team) => ({ membership_id: membership!.id, team_id: team.id })))
      .onConflict()
      .ignore();
  });
}

/** The permission level of a user in a project, if a member. */
export async function findPermissionLevel(
  knex: Knex,
  projectId: number,
  userId: number,
): Promise<PermissionLevel | undefined> {
  const row = await knex('project_memberships')
    .where({ project_id: projectId, user_id: userId })
    .first('permission_level');
  return row?.permission_level;
}
