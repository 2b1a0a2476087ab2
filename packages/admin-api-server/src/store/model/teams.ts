import type { Knex } from 'knex';

/** A team row. */
export interface TeamRow {
  id: number;
  project_id: number;
  name: string;
}

/** The team every new project gets, so activity has a team to be attributed to. */
export const DEFAULT_TEAM_NAME = 'Operations';

/** Creates a team in a project. */
export async function createTeam(
  knex: Knex,
  input: { projectId: number; name: string },
): Promise<TeamRow> {
  const [team] = await knex('teams')
    .insert({ project_id: input.projectId, name: input.name })
    .returning(['id', 'project_id', 'name']);
  return team as TeamRow;
}

/**
 * The team a user's writes are attributed to: the named one (which must be theirs), else their
 * first team, else the project's default team.
 */
export async function resolveUserTeam(
  knex: Knex,
  projectId: number,
  userId: number,
  teamName?: string,
): Promise<TeamRow | undefined> {
  const memberTeams = knex('teams')
    .join('project_membership_teams as mt', 'mt.team_id', 'teams.id')
    .join('project_memberships as m', 'm.id', 'mt.membership_id')
    .where({ 'm.project_id': projectId, 'm.user_id': userId })
    .select('teams.id', 'teams.project_id', 'teams.name')
    .orderBy('teams.id');
  if (teamName !== undefined) return memberTeams.andWhere('teams.name', teamName).first();
  const own = await memberTeams.first();
  if (own) return own;
  return knex('teams')
    .where({ project_id: projectId })
    .orderBy('id')
    .first('id', 'project_id', 'name');
}
