/**
 * What the console connects to. It reads `console.config.json` next to its page (admin-api-server
 * serves the one its host configured): the workspaces (project, environment, agent URL, teams) and
 * each environment's schema, as the agent wrote and uploaded it.
 */
import { parseSchema, type AgentSchema } from '../protocol';

/** A role's rights, as the management API stores them (`{collections: {orders: {…}}}`). */
export interface RoleRights {
  collections?: Record<string, Partial<Record<Right, boolean>>>;
}

export type Right =
  | 'browseEnabled'
  | 'readEnabled'
  | 'editEnabled'
  | 'addEnabled'
  | 'deleteEnabled'
  | 'exportEnabled';

export interface Workspace {
  /** Stable id used in URLs: `<project>/<environment>`. */
  id: string;
  project: string;
  environment: string;
  /** The environment's API endpoint: the agent's base URL (without `/forest`). */
  agentUrl: string;
  /** The teams (renderings) users sign in to. */
  renderings: { id: number; name: string }[];
  schema?: AgentSchema;
  schemaUrl?: string;
  /** Development environments allow everything. */
  development?: boolean;
  /** Rights by role name; a right a role does not mention is granted. */
  roles?: Record<string, RoleRights>;
}

export interface ConsoleConfig {
  workspaces: Workspace[];
}

function workspaceOf(raw: Record<string, unknown>): Workspace {
  const project = String(raw.project ?? '');
  const environment = String(raw.environment ?? '');
  const agentUrl = String(raw.agentUrl ?? '');
  if (!project || !environment || !/^https?:\/\//.test(agentUrl)) {
    throw new Error(
      'Each workspace of console.config.json needs "project", "environment" and an http(s) "agentUrl".',
    );
  }
  return {
    id: `${project}/${environment}`,
    project,
    environment,
    agentUrl,
    renderings: Array.isArray(raw.renderings) ? (raw.renderings as Workspace['renderings']) : [],
    schema: raw.schema ? parseSchema(raw.schema) : undefined,
    schemaUrl: typeof raw.schemaUrl === 'string' ? raw.schemaUrl : undefined,
    development: raw.development === true,
    roles: (raw.roles ?? undefined) as Workspace['roles'],
  };
}

export async function loadConfig(): Promise<ConsoleConfig> {
  const response = await fetch(`${import.meta.env.BASE_URL}console.config.json`, {
    headers: { accept: 'application/json' },
  });
  if (response.status === 404) return { workspaces: [] };
  if (!response.ok) {
    throw new Error(`console.config.json answered ${response.status} ${response.statusText}.`);
  }
  const body = (await response.json()) as { workspaces?: Record<string, unknown>[] };
  return { workspaces: (body.workspaces ?? []).map(workspaceOf) };
}

export async function loadSchema(workspace: Workspace): Promise<AgentSchema> {
  if (workspace.schema) return workspace.schema;
  if (!workspace.schemaUrl) {
    throw new Error(`No schema is configured for ${workspace.project} / ${workspace.environment}.`);
  }
  const response = await fetch(workspace.schemaUrl);
  if (!response.ok) throw new Error(`The schema answered ${response.status}.`);
  return parseSchema(await response.json());
}

/** Whether the signed-in role has a right on a collection. */
export function allowed(
  workspace: Workspace,
  role: string | undefined,
  collection: string,
  right: Right,
  denied: ReadonlySet<string>,
): boolean {
  if (denied.has(`${collection}:${right}`)) return false;
  if (workspace.development) return true;
  const rights = role ? workspace.roles?.[role] : undefined;
  return rights?.collections?.[collection]?.[right] !== false;
}
