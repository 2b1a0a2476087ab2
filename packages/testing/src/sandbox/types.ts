import type {
  ActionRights,
  ActivityLogReport,
  CollectionRights,
  PlainConditionTree,
  RecordChangedEvent,
  RoleRights,
} from '@canopy/platform-protocol';

export type { ActionRights, CollectionRights, PlainConditionTree };

/** A write an agent reported (`POST /liana/v1/record-changes`, platform protocol §7.1). */
export type SandboxRecordChange = RecordChangedEvent;

/** A platform user, as `GET /liana/v4/permissions/users` lists it. */
export interface SandboxUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  permissionLevel: 'admin' | 'developer' | 'editor' | 'user';
  roleId: number;
  tags?: Record<string, string>;
}

/** Rights of a role, per collection and per action display name. */
export interface SandboxRole extends RoleRights {
  id: number;
  name: string;
}

/** The body of `POST /permission-override`: per collection, rights that apply to every role. */
export type PermissionOverrides = Record<
  string,
  { collection?: CollectionRights; actions?: Record<string, ActionRights> }
>;

/** One entry of the IP whitelist (section 4): the wire type of @canopy/platform-protocol. */
export type { IpRule } from '@canopy/platform-protocol';

/** An activity log as the agent reports it (`POST /liana/v1/activity-logs`): the wire type. */
export type ActivityLogEntry = ActivityLogReport;

/** A collection as stored from the agent's schema (the fields the sandbox reads). */
export interface SchemaCollection {
  name: string;
  fields?: unknown[];
  actions?: { id?: string; name: string; [key: string]: unknown }[];
  segments?: unknown[];
  [key: string]: unknown;
}

/** The agent's schema: collections and meta, as in the schema file. */
export interface SandboxSchema {
  collections: SchemaCollection[];
  meta?: Record<string, unknown>;
}
