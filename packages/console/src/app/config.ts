/**
 * What a signed-in user may open (from the platform's `/v1/me` routes, see `platform.ts`) and the
 * rights checks the console makes with the role's rights. Nothing here is configured by a file.
 */
import type {
  ActionRight,
  CollectionRight,
  MeWorkspaces,
  RoleRights as ProtocolRoleRights,
} from '@canopy/platform-protocol';

export type { ActionRight };

/** Collection rights of a role, as the management API stores them; absent rights are granted. */
export type Right = CollectionRight;

/** A role's rights, in the management API's shape (absent rights are granted, except approval). */
export type RoleRights = ProtocolRoleRights<Record<string, unknown>>;

/** An environment the user may open, with the teams (renderings) they may sign in with. */
export interface Workspace {
  /** Stable id: `<project>/<environment>`. */
  id: string;
  project: string;
  environment: string;
  /** The environment's API endpoint: the agent's base URL (without `/forest`); null if unset. */
  agentUrl: string | null;
  development: boolean;
  /** The user's teams in the project (a rendering id is a team id). */
  renderings: { id: number; name: string }[];
}

/** The environments of every project of the user, in the order the platform lists them. */
export function workspacesOf(me: MeWorkspaces): Workspace[] {
  return me.projects.flatMap((project) =>
    project.environments.map((environment) => ({
      id: `${project.name}/${environment.name}`,
      project: project.name,
      environment: environment.name,
      agentUrl: environment.apiEndpoint,
      development: environment.isDevelopment,
      renderings: project.teams,
    })),
  );
}

/**
 * Whether a role with `rights` has a collection right. Development environments grant
 * everything; a member without a role (`rights` null) holds nothing; a right the agent refused
 * during this session (`denied`) is gone.
 */
export function allowed(
  rights: RoleRights | null,
  development: boolean,
  collection: string,
  right: Right,
  denied: ReadonlySet<string> = new Set(),
): boolean {
  if (denied.has(`${collection}:${right}`)) return false;
  if (development) return true;
  if (!rights) return false;
  return rights.collections?.[collection]?.[right] !== false;
}

/** Whether a role with `rights` has an action right (same rules; `approvalRequired` is opt-in). */
export function actionAllowed(
  rights: RoleRights | null,
  development: boolean,
  collection: string,
  action: string,
  right: ActionRight,
): boolean {
  const value = rights?.actions?.[collection]?.[action]?.[right];
  if (right === 'approvalRequired') return !development && value === true;
  if (development) return true;
  if (!rights) return false;
  return value !== false;
}
