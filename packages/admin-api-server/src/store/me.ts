import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError, projectNotAccessible } from '../errors';
import type {
  MeEnvironment,
  MeEnvironmentDetail,
  MeWorkspaces,
  RoleRights,
} from '@canopy/platform-protocol';

const environmentOf = (row: {
  name: string;
  type: 'development' | 'production';
  api_endpoint: string | null;
}): MeEnvironment => ({
  name: row.name,
  type: row.type,
  isDevelopment: row.type === 'development',
  apiEndpoint: row.api_endpoint,
});

/** The teams of a membership, by name. */
async function membershipTeams(knex: Knex, membershipIds: number[]) {
  if (membershipIds.length === 0) return [];
  return knex('project_membership_teams as mt')
    .join('teams as t', 't.id', 'mt.team_id')
    .whereIn('mt.membership_id', membershipIds)
    .orderBy('t.name')
    .select('mt.membership_id', 't.id', 't.name') as Promise<
    { membership_id: number; id: number; name: string }[]
  >;
}

/** Every project the user is a member of, with its environments and the user's teams and role. */
export async function listWorkspaces(knex: Knex, userId: number): Promise<MeWorkspaces> {
  const user = await knex('users')
    .where({ id: userId })
    .first('id', 'email', 'first_name', 'last_name');
  const memberships = await knex('project_memberships as m')
    .join('projects as p', 'p.id', 'm.project_id')
    .leftJoin('roles as r', 'r.id', 'm.role_id')
    .where('m.user_id', userId)
    .orderBy('p.name')
    .select(
      'm.id',
      'p.id as project_id',
      'p.name',
      'm.permission_level',
      'r.id as role_id',
      'r.name as role_name',
    );
  const projectIds = memberships.map((m) => m.project_id as number);
  const environments =
    projectIds.length === 0
      ? []
      : await knex('environments')
          .whereIn('project_id', projectIds)
          .orderBy('name')
          .select('project_id', 'name', 'type', 'api_endpoint');
  const teams = await membershipTeams(
    knex,
    memberships.map((m) => m.id as number),
  );
  return {
    user: {
      id: user.id,
      email: user.email,
      firstName: user.first_name,
      lastName: user.last_name,
    },
    projects: memberships.map((m) => ({
      name: m.name,
      permissionLevel: m.permission_level,
      role: m.role_id ? { id: m.role_id, name: m.role_name } : null,
      teams: teams.filter((t) => t.membership_id === m.id).map(({ id, name }) => ({ id, name })),
      environments: environments.filter((e) => e.project_id === m.project_id).map(environmentOf),
    })),
  };
}

/**
 * What the user's console needs of one environment. A project the user is no member of answers
 * exactly like an unknown one. The version is computed without reading the schema, which is read
 * only when the caller's `knownVersion` is out of date.
 *
 * @returns `{ notModified: true }` when `knownVersion` is still current.
 */
export async function environmentDetail(
  knex: Knex,
  userId: number,
  projectName: string,
  environmentName: string,
  knownVersion?: string,
): Promise<MeEnvironmentDetail | { notModified: true; rightsVersion: string }> {
  const membership = await knex('project_memberships as m')
    .join('projects as p', 'p.id', 'm.project_id')
    .join('users as u', 'u.id', 'm.user_id')
    .leftJoin('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.user_id': userId, 'p.name': projectName })
    .first(
      'm.id',
      'p.id as project_id',
      'p.name',
      'u.email',
      'm.permission_level',
      'r.id as role_id',
      'r.name as role_name',
      'r.rights',
    );
  if (!membership) throw projectNotAccessible(projectName);
  const environment = await knex('environments')
    .where({ project_id: membership.project_id, name: environmentName })
    .first('id', 'name', 'type', 'api_endpoint', 'schema_hash');
  if (!environment) {
    throw new ApiError(
      404,
      'environment_not_found',
      `Project "${projectName}" has no environment named "${environmentName}" (names are case sensitive).`,
    );
  }
  const teams = (await membershipTeams(knex, [membership.id])).map(({ id, name }) => ({
    id,
    name,
  }));
  const role = membership.role_id ? { id: membership.role_id, name: membership.role_name } : null;
  const rights: RoleRights | null = membership.role_id ? (membership.rights ?? {}) : null;
  const rightsVersion = createHash('sha256')
    .update(
      JSON.stringify([
        environment.type,
        environment.api_endpoint,
        environment.schema_hash,
        membership.permission_level,
        role,
        rights,
        teams,
      ]),
    )
    .digest('base64url')
    .slice(0, 22);
  if (knownVersion === rightsVersion) return { notModified: true, rightsVersion };
  const schemaRow = await knex('environments').where({ id: environment.id }).first('schema');
  return {
    project: { name: membership.name },
    environment: environmentOf(environment),
    user: { id: userId, email: membership.email, permissionLevel: membership.permission_level },
    teams,
    role,
    rights,
    rightsVersion,
    schema: schemaRow?.schema ?? null,
  };
}
