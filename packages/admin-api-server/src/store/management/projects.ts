import type { Knex } from 'knex';
import { ApiError } from '../../errors';
import { insertAdminLogs } from '../admin-log-writer';
import { DEFAULT_TEAM_NAME, type ProjectRow } from '../model';
import { issueEnvironmentSecret } from '../model/environment-secrets';
import { memberValue } from './admin-values';
import { createEnvironmentWithSecret } from './environments';

/** The role every project gets, holding every right; bootstrap gives it to the first admin. */
export const ADMIN_ROLE_NAME = 'Admin';

/** What {@link bootstrapProject} created or found. */
export interface BootstrapResult {
  project: ProjectRow;
  environmentId: number;
  /** The type of the environment (as created, or as it already was). */
  environmentType: 'development' | 'production';
  userId: number;
  /** What already existed, in words (empty on a fresh server). */
  existing: string[];
  /** The env secret, when the environment was created by this call. */
  secret?: string;
}

/**
 * Creates (or finds) a project with its default team and Admin role, an environment with its
 * env secret, and an admin user holding the Admin role, in one transaction, with admin logs.
 * Running it again creates only what is missing and never prints an existing secret again.
 *
 * @example
 * const result = await bootstrapProject(knex, { project: 'Shop', environment: 'Production', adminEmail: 'ada@example.com' });
 */
export async function bootstrapProject(
  knex: Knex,
  input: {
    project: string;
    environment: string;
    /** The type of the environment if it is created (default production); an existing one keeps its own. */
    environmentType?: 'development' | 'production';
    adminEmail: string;
    actorId?: number | null;
  },
): Promise<BootstrapResult> {
  return knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`bootstrap:${input.project}`]);
    const existing: string[] = [];
    let project: ProjectRow | undefined = await trx('projects')
      .where({ name: input.project })
      .first('id', 'name', 'sso_enabled');
    if (project) existing.push(`project "${input.project}"`);
    else {
      [project] = await trx('projects')
        .insert({ name: input.project })
        .returning(['id', 'name', 'sso_enabled']);
      await trx('teams').insert({ project_id: project!.id, name: DEFAULT_TEAM_NAME });
    }
    const projectId = project!.id;
    let role = await trx('roles')
      .where({ project_id: projectId, name: ADMIN_ROLE_NAME })
      .first('id');
    if (!role) {
      [role] = await trx('roles')
        .insert({ project_id: projectId, name: ADMIN_ROLE_NAME })
        .returning(['id']);
      await insertAdminLogs(trx, projectId, [
        {
          type: 'add',
          resource: 'role',
          initiator: 'forestAdmin',
          newValue: { name: ADMIN_ROLE_NAME },
        },
      ]);
    }
    let user = await trx('users')
      .whereRaw('lower(email) = lower(?)', [input.adminEmail])
      .first('id');
    if (user) existing.push(`user ${input.adminEmail}`);
    else {
      [user] = await trx('users')
        .insert({ email: input.adminEmail, username: input.adminEmail.split('@')[0] })
        .returning(['id']);
    }
    const membership = await trx('project_memberships')
      .where({ project_id: projectId, user_id: user.id })
      .first('id', 'permission_level');
    if (membership) {
      existing.push(`${input.adminEmail}'s membership (${membership.permission_level})`);
    } else {
      const [created] = await trx('project_memberships')
        .insert({
          project_id: projectId,
          user_id: user.id,
          permission_level: 'admin',
          role_id: role.id,
        })
        .returning(['id']);
      const team = await trx('teams').where({ project_id: projectId }).orderBy('id').first('id');
      await trx('project_membership_teams').insert({ membership_id: created.id, team_id: team.id });
      await insertAdminLogs(trx, projectId, [
        {
          type: 'add',
          resource: 'user-project',
          initiator: 'forestAdmin',
          userId: input.actorId ?? null,
          newValue: await memberValue(trx, projectId, user.id),
        },
      ]);
    }
    const environment = await trx('environments')
      .where({ project_id: projectId, name: input.environment })
      .first('id', 'secret_hash', 'type');
    if (environment && input.environmentType && environment.type !== input.environmentType) {
      existing.push(
        `environment "${input.environment}" is of type ${environment.type}; its type is not changed`,
      );
    }
    if (environment?.secret_hash) {
      existing.push(`environment "${input.environment}" (its env secret is not shown again)`);
      return {
        project: project!,
        environmentId: environment.id,
        environmentType: environment.type,
        userId: user.id,
        existing,
      };
    }
    if (environment) {
      const secret = await issueEnvironmentSecret(trx, environment.id);
      return {
        project: project!,
        environmentId: environment.id,
        environmentType: environment.type,
        userId: user.id,
        existing,
        secret,
      };
    }
    const created = await createEnvironmentWithSecret(trx, projectId, input.actorId ?? null, {
      name: input.environment,
      type: input.environmentType ?? 'production',
    });
    return {
      project: project!,
      environmentId: created.environment.id,
      environmentType: created.environment.type,
      userId: user.id,
      existing,
      secret: created.secret,
    };
  });
}

/** Creates a project for a signed-in user, who becomes its admin with the Admin role. */
export async function createProjectFor(
  knex: Knex,
  userId: number,
  name: string,
): Promise<ProjectRow> {
  return knex.transaction(async (trx) => {
    const [project] = await trx('projects')
      .insert({ name })
      .onConflict('name')
      .ignore()
      .returning(['id', 'name', 'sso_enabled']);
    if (!project) throw new ApiError(409, 'conflict', `A project named "${name}" already exists.`);
    const [team] = await trx('teams')
      .insert({ project_id: project.id, name: DEFAULT_TEAM_NAME })
      .returning(['id']);
    const [role] = await trx('roles')
      .insert({ project_id: project.id, name: ADMIN_ROLE_NAME })
      .returning(['id']);
    const [membership] = await trx('project_memberships')
      .insert({
        project_id: project.id,
        user_id: userId,
        permission_level: 'admin',
        role_id: role.id,
      })
      .returning(['id']);
    await trx('project_membership_teams').insert({
      membership_id: membership.id,
      team_id: team.id,
    });
    await insertAdminLogs(trx, project.id, [
      {
        type: 'add',
        resource: 'role',
        initiator: 'administrator',
        userId,
        newValue: { name: ADMIN_ROLE_NAME },
      },
      {
        type: 'add',
        resource: 'user-project',
        initiator: 'administrator',
        userId,
        newValue: await memberValue(trx, project.id, userId),
      },
    ]);
    return project as ProjectRow;
  });
}
