/**
 * The management API of admin-api-server (`/v1/project/{project}/…`) as the settings screens use
 * it, over the Console's platform client (protocol/platform-client.ts), no React. Every call is
 * made as the signed-in user; the server answers 403 unless the user is an admin of the project.
 */
import type { PlatformClient } from '../../../protocol';
import {
  type ActionCondition,
  type ActionRight,
  type ActionRights as ProtocolActionRights,
  APPLICATION_TOKEN_SCOPES,
  type ApplicationTokenItem,
  type ApplicationTokenScope,
  type CollectionRight,
  type ManagedEnvironment,
  type ManagedRole,
  type ManagedTeam,
  type Member,
  type MemberInvitation,
  PERMISSION_LEVELS,
  type PermissionLevel,
  type ProjectDetails as ProtocolProjectDetails,
  type RoleRights,
} from '@canopy/platform-protocol';

export { APPLICATION_TOKEN_SCOPES, PERMISSION_LEVELS };
export type { ApplicationTokenScope, Member, PermissionLevel };

export type { ActionCondition, CollectionRight };
export type ActionSwitch = ActionRight;

/** One action's rights in the management API's shape: an absent right is granted. */
export type ActionRights = ProtocolActionRights<Record<string, unknown>>;

/** A role's rights in the management API's shape: an absent right is granted. */
export type ManagedRoleRights = RoleRights<Record<string, unknown>>;

export type Invitation = MemberInvitation;
/** The management API's items, with condition trees as plain JSON objects. */
export type Role = ManagedRole<Record<string, unknown>>;
export type Team = ManagedTeam;
export type Environment = ManagedEnvironment;
export type ProjectDetails = ProtocolProjectDetails<Record<string, unknown>>;
export type ApplicationToken = ApplicationTokenItem;

/** The management routes, through the Console's one platform client (token, 401, errors). */
export class ManagementApi {
  constructor(private readonly platform: PlatformClient) {}

  private call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.platform.json<T>(path, { method, json: body });
  }

  private project(name: string): string {
    return `/v1/project/${encodeURIComponent(name)}`;
  }

  /** `GET /v1/project/{p}`: environments, members, roles, teams (admins only). */
  details(project: string): Promise<ProjectDetails> {
    return this.call('GET', this.project(project));
  }

  /** `POST …/members`: an unknown email gets an account and a one-time invitation link. */
  addMember(
    project: string,
    input: {
      email: string;
      firstName?: string;
      lastName?: string;
      permissionLevel: PermissionLevel;
      roleName?: string | null;
      teamNames?: string[];
    },
  ): Promise<Member & { invitation?: Invitation }> {
    return this.call('POST', `${this.project(project)}/members`, input);
  }

  /** `PATCH …/members/{userId}`. */
  updateMember(
    project: string,
    userId: number,
    changes: { permissionLevel?: PermissionLevel; roleName?: string | null; teamNames?: string[] },
  ): Promise<Member> {
    return this.call('PATCH', `${this.project(project)}/members/${userId}`, changes);
  }

  /** `DELETE …/members/{userId}`. */
  removeMember(project: string, userId: number): Promise<void> {
    return this.call('DELETE', `${this.project(project)}/members/${userId}`);
  }

  /** `DELETE …/members/{userId}/lock`: lifts the account's sign-in lock (admin logs record it). */
  unlockMember(project: string, userId: number): Promise<void> {
    return this.call('DELETE', `${this.project(project)}/members/${userId}/lock`);
  }

  /** `POST …/roles`. */
  createRole(project: string, input: { name: string; rights?: ManagedRoleRights }): Promise<Role> {
    return this.call('POST', `${this.project(project)}/roles`, input);
  }

  /** `PATCH …/roles/{name}`: rename and/or replace the rights. */
  updateRole(
    project: string,
    name: string,
    changes: { name?: string; rights?: ManagedRoleRights },
  ): Promise<Role> {
    return this.call(
      'PATCH',
      `${this.project(project)}/roles/${encodeURIComponent(name)}`,
      changes,
    );
  }

  /** `DELETE …/roles/{name}`. */
  deleteRole(project: string, name: string): Promise<void> {
    return this.call('DELETE', `${this.project(project)}/roles/${encodeURIComponent(name)}`);
  }

  /** `POST …/teams`. */
  createTeam(project: string, input: { name: string; scopes?: Team['scopes'] }): Promise<Team> {
    return this.call('POST', `${this.project(project)}/teams`, input);
  }

  /** `PATCH …/teams/{name}`: rename and/or replace the scopes. */
  updateTeam(
    project: string,
    name: string,
    changes: { name?: string; scopes?: Team['scopes'] },
  ): Promise<Team> {
    return this.call(
      'PATCH',
      `${this.project(project)}/teams/${encodeURIComponent(name)}`,
      changes,
    );
  }

  /** `DELETE …/teams/{name}`. */
  deleteTeam(project: string, name: string): Promise<void> {
    return this.call('DELETE', `${this.project(project)}/teams/${encodeURIComponent(name)}`);
  }

  /** `GET …/application-tokens` (never the secrets). */
  async listTokens(project: string): Promise<ApplicationToken[]> {
    const { data } = await this.call<{ data: ApplicationToken[] }>(
      'GET',
      `${this.project(project)}/application-tokens`,
    );
    return data;
  }

  /** `POST …/application-tokens`: the answer carries the secret, shown this once. */
  createToken(
    project: string,
    input: { name: string; scopes: ApplicationTokenScope[]; expiresAt?: string },
  ): Promise<ApplicationToken & { token: string }> {
    return this.call('POST', `${this.project(project)}/application-tokens`, input);
  }

  /** `DELETE …/application-tokens/{id}`. */
  revokeToken(project: string, id: number): Promise<void> {
    return this.call('DELETE', `${this.project(project)}/application-tokens/${id}`);
  }

  /** `POST …/environments`: the answer carries the env secret, shown this once. */
  createEnvironment(
    project: string,
    input: { name: string; type?: Environment['type']; apiEndpoint?: string | null },
  ): Promise<{ environment: Environment; secret?: string }> {
    return this.call('POST', `${this.project(project)}/environments`, input);
  }

  /** `PATCH …/environments/{name}`: rename, type, API endpoint, or a new env secret. */
  updateEnvironment(
    project: string,
    name: string,
    changes: {
      name?: string;
      type?: Environment['type'];
      apiEndpoint?: string | null;
      rotateSecret?: boolean;
    },
  ): Promise<{ environment: Environment; secret?: string }> {
    return this.call(
      'PATCH',
      `${this.project(project)}/environments/${encodeURIComponent(name)}`,
      changes,
    );
  }
}
