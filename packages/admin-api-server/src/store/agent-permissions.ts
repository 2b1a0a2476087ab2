import type { Knex } from 'knex';
import type { PlatformUser, RoleWithRights } from '@canopy/platform-protocol';

export type { PlatformUser };

/** The members of a project, by user id. */
export async function projectUsers(knex: Knex, projectId: number): Promise<PlatformUser[]> {
  const rows = await knex('project_memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.project_id', projectId)
    .orderBy('u.id')
    .select(
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'm.permission_level',
      'm.role_id',
      'm.tags',
    );
  return rows.map((row) => ({
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    fullName: `${row.first_name} ${row.last_name}`.trim(),
    email: row.email,
    permissionLevel: row.permission_level,
    roleId: row.role_id,
    tags: row.tags ?? {},
  }));
}

/** The roles of a project with their rights. */
export async function projectRoles(knex: Knex, projectId: number): Promise<RoleWithRights[]> {
  const rows = await knex('roles')
    .where({ project_id: projectId })
    .orderBy('id')
    .select('id', 'rights');
  return rows.map((row) => ({ id: row.id, rights: row.rights ?? {} }));
}

/** A team of a project with its row-level scopes per collection, if it exists. */
export async function findTeamWithScopes(
  knex: Knex,
  projectId: number,
  teamId: number,
): Promise<
  { id: number; name: string; scopes: Record<string, unknown>; charts: unknown[] } | undefined
> {
  const row = await knex('teams')
    .where({ project_id: projectId, id: teamId })
    .first('id', 'name', 'scopes', 'charts');
  return row && { id: row.id, name: row.name, scopes: row.scopes ?? {}, charts: row.charts ?? [] };
}
