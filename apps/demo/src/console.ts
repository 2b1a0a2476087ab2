import { readFileSync } from 'node:fs';
import type { DemoPlatform } from './platform';

/** A workspace of the console's `console.config.json` (see @canopy/console's README). */
export interface ConsoleWorkspace {
  project: string;
  environment: string;
  agentUrl: string;
  renderings: { id: number; name: string }[];
  schema: unknown;
  development: boolean;
  roles: Record<string, RoleRights>;
}

type RoleRights = { collections?: Record<string, Record<string, boolean>> };

interface ProjectDetails {
  teams: { id: number; name: string }[];
  roles: { name: string; rights: RoleRights }[];
  environments: { name: string; type: string }[];
}

/**
 * The demo environment as the console lists it: the agent's URL, the project's teams (a
 * rendering id is a team id), the roles' rights, and the schema file the agent wrote.
 */
export async function consoleWorkspace(
  platform: DemoPlatform,
  agentUrl: string,
  schemaPath: string,
): Promise<ConsoleWorkspace> {
  const project = await platform.manage<ProjectDetails>('GET', `/v1/project/${platform.project}`);
  const environment = project.environments.find((env) => env.name === platform.environment);
  return {
    project: platform.project,
    environment: platform.environment,
    agentUrl,
    renderings: project.teams.map(({ id, name }) => ({ id, name })),
    schema: JSON.parse(readFileSync(schemaPath, 'utf8')) as unknown,
    development: environment?.type === 'development',
    roles: Object.fromEntries(project.roles.map((role) => [role.name, role.rights])),
  };
}
