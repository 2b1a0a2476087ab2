import type { Knex } from 'knex';
import { DEFAULT_TEAM_NAME } from './teams';

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
