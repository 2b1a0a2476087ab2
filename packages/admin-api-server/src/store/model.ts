import type { Knex } from 'knex';

/** Permission levels of a project member; only `admin` may create application tokens. */
export const PERMISSION_LEVELS = ['admin', 'editor', 'user', 'developer', 'manager'] as const;
/** A project member's permission level. */
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

/** A project row. */
export interface ProjectRow {
  id: number;
  name: string;
  sso_enabled: boolean;
}

/** An environment row. */
export interface EnvironmentRow {
  id: number;
  project_id: number;
  name: string;
  type: 'development' | 'production';
}

/** A user row. */
export interface UserRow {
  id: number;
  email: string;
  username: string;
}

/** A team row. */
export interface TeamRow {
  id: number;
  project_id: number;
  name: string;
}

/** The team every new project gets, so activity has a team to be attributed to. */
export const DEFAULT_TEAM_NAME = 'Operations';

/**
 * Creates a project with its default team (and any extra teams).
 *
 * @example
 * const project = await createProject(knex, { name: 'Shop', ssoEnabled: false });
 */
export async function createProject(
  knex: Knex,
  input: { name: string; ssoEnabled?: boolean; teams?: string[] },
): Promise<ProjectRow> {
  return knex.transaction(async (trx) => {
    const [project] = await trx('projects')
      .insert({ name: input.name, sso_enabled: input.ssoEnabled ?? false })
      .returning(['id', 'name', 'sso_enabled']);
    const teams = [DEFAULT_TEAM_NAME, ...(input.teams ?? [])];
    await trx('teams').insert(
      [...new Set(teams)].map((name) => ({ project_id: project!.id, name })),
    );
    return project as ProjectRow;
  });
}

/** Creates an environment of a project. */
export async function createEnvironment(
  knex: Knex,
  input: { projectId: number; name: string; type?: 'development' | 'production' },
): Promise<EnvironmentRow> {
  const [environment] = await knex('environments')
    .insert({ project_id: input.projectId, name: input.name, type: input.type ?? 'production' })
    .returning(['id', 'project_id', 'name', 'type']);
  return environment as EnvironmentRow;
}

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

/** Creates a user; the email is unique regardless of case. */
export async function createUser(
  knex: Knex,
  input: { email: string; username?: string },
): Promise<UserRow> {
  const [user] = await knex('users')
    .insert({ email: input.email, username: input.username ?? input.email.split('@')[0] })
    .returning(['id', 'email', 'username']);
  return user as UserRow;
}

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

/** Finds a project by its case-sensitive name. */
export async function findProjectByName(knex: Knex, name: string): Promise<ProjectRow | undefined> {
  return knex('projects').where({ name }).first('id', 'name', 'sso_enabled');
}

/** Finds an environment of a project by its case-sensitive name. */
export async function findEnvironmentByName(
  knex: Knex,
  projectId: number,
  name: string,
): Promise<EnvironmentRow | undefined> {
  return knex('environments')
    .where({ project_id: projectId, name })
    .first('id', 'project_id', 'name', 'type');
}

/** Finds a user by email, regardless of case. */
export async function findUserByEmail(knex: Knex, email: string): Promise<UserRow | undefined> {
  return knex('users')
    .whereRaw('lower(email) = lower(?)', [email])
    .first('id', 'email', 'username');
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
