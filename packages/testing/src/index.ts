// Platform sandbox: a local, in-memory imitation of the Canopy platform for agent tests.
export { createServerSandbox } from './sandbox/create-server-sandbox';
export type { ServerSandbox, ServerSandboxOptions } from './sandbox/create-server-sandbox';
export { TEST_USER, TEST_ROLE, TEST_TEAM, TEST_RENDERING_ID } from './sandbox/test-user';
export { ACTIVITY_LOG_ACTIONS } from './sandbox/activity-logs';
export { schemaFromDocument } from './sandbox/schema-document';
export type { SandboxOAuth, SandboxOAuthClient, SandboxOAuthLogin } from './sandbox/oauth';
export type { SandboxActionApproval } from './sandbox/action-approvals';
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
  SandboxRecordChange,
} from './sandbox/types';

// Test client: drives a running agent the way the admin front end does.
export { createAgentTestClient } from './client/create-agent-test-client';
export type {
  AgentTestClient,
  AgentTestClientOptions,
  AuditTrailClient,
  AuditTrailQuery,
  AuditTrailRow,
} from './client/create-agent-test-client';
export { CollectionClient, RelationClient, type ClientRecordId } from './client/collection-client';
export {
  ActionClient,
  ActionFieldClient,
  ActionFailedError,
  ActionRequiresApprovalError,
  type ActionTarget,
  type ClientFile,
} from './client/action-client';
export { AgentHttpError } from './client/agent-http';
export type { ClientRecord } from './client/deserialize-records';
export type { ClientConditionTree, QueryOptions } from './client/query-options';
export type { SchemaFile, SchemaFileAction, SchemaFormField } from './client/schema-file';
