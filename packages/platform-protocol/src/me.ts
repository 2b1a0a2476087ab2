/** The signed-in user's own resources of the public API (`/v1/me/...`, tag `me`). */
import type { RoleRights } from './role-rights';

/** A team (an agent's rendering: its id is the rendering id) the user may sign in with. */
export interface MeTeam {
  id: number;
  name: string;
}

/** An environment as the signed-in user's console lists it. */
export interface MeEnvironment {
  name: string;
  type: 'development' | 'production';
  isDevelopment: boolean;
  /** The agent's base URL (without `/forest`); `null` until an admin sets it. */
  apiEndpoint: string | null;
}

/** A project the user is a member of. */
export interface MeProject {
  name: string;
  permissionLevel: string;
  role: { id: number; name: string } | null;
  teams: MeTeam[];
  environments: MeEnvironment[];
}

/** `GET /v1/me/workspaces`. */
export interface MeWorkspaces {
  user: { id: number; email: string; firstName: string; lastName: string };
  projects: MeProject[];
}

/** `GET /v1/me/projects/:projectName/environments/:environmentName`. */
export interface MeEnvironmentDetail {
  project: { name: string };
  environment: MeEnvironment;
  user: { id: number; email: string; permissionLevel: string };
  teams: MeTeam[];
  role: { id: number; name: string } | null;
  /** The role's rights (management API shape); `null` without a role (nothing is granted). */
  rights: RoleRights | null;
  /** Changes whenever rights, role, teams, environment or schema change (the ETag). */
  rightsVersion: string;
  /** The schema document the agent last uploaded; `null` before its first start. */
  schema: unknown;
}
