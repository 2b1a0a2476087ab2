// Platform sandbox: a local, in-memory imitation of the Canopy platform for agent tests.
export { createServerSandbox } from './sandbox/create-server-sandbox';
export type { ServerSandbox, ServerSandboxOptions } from './sandbox/create-server-sandbox';
export { TEST_USER, TEST_ROLE, TEST_TEAM, TEST_RENDERING_ID } from './sandbox/test-user';
export { ACTIVITY_LOG_ACTIONS } from './sandbox/activity-logs';
export type {
  ActivityLogEntry,
  ActionRights,
  CollectionRights,
  IpRule,
  PermissionOverrides,
  PlainConditionTree,
  SandboxRole,
  SandboxSchema,
  SandboxUser,
} from './sandbox/types';
