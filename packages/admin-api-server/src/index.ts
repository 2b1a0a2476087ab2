// The public API of @canopy/admin-api-server: run the server (or its CLI), set a project up,
// write to the audit trail, issue tokens. What tests and tooling of the workspace need besides is
// in `@canopy/admin-api-server/internals` (src/internals.ts), with no promise of stability.

// Server.
export { createAdminApiServer, type AdminApiServer } from './server';
export {
  loadConfig,
  parseSigningKeys,
  ConfigError,
  DEFAULT_RATE_LIMIT,
  DEFAULT_LOGIN_LIMIT,
  type AdminApiServerConfig,
  type ConsoleOptions,
  type DatabaseConfig,
  type RateLimitConfig,
  type LoginLimitConfig,
  type SigningKey,
} from './config';
export { runCli, type CliIo } from './cli/run-cli';
export { buildOpenApiDocument } from './openapi/document';
export { migrateToLatest, migrationSource } from './migrations';

// Setting a project up (README, "Setting up a project for agents").
export {
  createProject,
  createEnvironment,
  createTeam,
  createUser,
  addProjectMember,
  PERMISSION_LEVELS,
  type PermissionLevel,
  type ProjectRow,
  type EnvironmentRow,
  type UserRow,
  type TeamRow,
} from './store/model';
export {
  bootstrapProject,
  ADMIN_ROLE_NAME,
  type BootstrapResult,
} from './store/management/projects';
export { setUserPassword, MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } from './store/model/passwords';
export { issueEnvironmentSecret } from './store/model/environment-secrets';
export type { RoleRights, CollectionRights, ActionRights } from '@canopy/platform-protocol';

// Writing to the audit trail from code (README, same section).
export {
  insertActivityLogs,
  ACTIVITY_ACTIONS,
  type ActivityLogInput,
  type ActivityAction,
  type ActivityType,
} from './store/activity-log-writer';
export {
  insertAdminLogs,
  type AdminLogInput,
  type AdminLogType,
  type AdminLogResource,
  type AdminLogInitiator,
} from './store/admin-log-writer';
export { chainKeysOf, useChainKeys, type ChainKey } from './integrity/chain-keys';

// Tokens.
export {
  issueApplicationToken,
  type IssueApplicationTokenInput,
} from './tokens/issue-application-token';
export { signSessionToken, SCOPES, type Scope } from './auth';
export { issueMcpTokens, type McpGrant } from './auth/mcp-tokens';

// Errors.
export { ApiError, isApiError, type ApiErrorCode } from './errors';
