/**
 * The items of the management API (`/v1/project/{project}/…`, spec/admin-api.md): admin-api-server
 * answers them, the Console's settings screens read them.
 */
import type { IpRule } from './ip-rules';
import type { Member } from './members';
import type { PlainConditionTree, RoleRights } from './role-rights';
import type { ApplicationTokenScope } from './token-scopes';

/** An environment (never its secret). */
export interface ManagedEnvironment {
  id: number;
  name: string;
  type: 'development' | 'production';
  apiEndpoint: string | null;
  /** Collections its agent declared in its last schema upload. */
  collections: string[];
}

/** A role and its rights (an absent right is granted, except "requires approval"). */
export interface ManagedRole<Condition = PlainConditionTree> {
  id: number;
  name: string;
  rights: RoleRights<Condition>;
}

/** A team; its id is also the agents' rendering id. */
export interface ManagedTeam {
  id: number;
  name: string;
  /** Row-level scope (a condition tree) per collection name. */
  scopes: Record<string, unknown>;
}

/** The one-time link a new member sets a password with (`POST …/members`, shown once). */
export interface MemberInvitation {
  url: string;
  token: string;
  expiresAt: string;
}

/** `GET /v1/project/{project}`: the project with everything its admins manage. */
export interface ProjectDetails<Condition = PlainConditionTree> {
  id: number;
  name: string;
  ssoEnabled: boolean;
  environments: ManagedEnvironment[];
  members: Member[];
  roles: ManagedRole<Condition>[];
  teams: ManagedTeam[];
  /** The IP whitelist rules; `null` when the whitelist is off. */
  ipWhitelist: IpRule[] | null;
  activityLogRetentionMonths: number | null;
}

/** An application token as listed (`GET …/application-tokens`): never the token itself. */
export interface ApplicationTokenItem {
  object: 'applicationToken';
  id: number;
  name: string;
  scopes: ApplicationTokenScope[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string;
}
