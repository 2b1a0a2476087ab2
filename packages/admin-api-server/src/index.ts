// Server.
export { createAdminApiServer, type AdminApiServer } from './server';
export {
  loadConfig,
  parseSigningKeys,
  ConfigError,
  DEFAULT_RATE_LIMIT,
  DEFAULT_LOGIN_LIMIT,
  type AdminApiServerConfig,
  type DatabaseConfig,
  type RateLimitConfig,
  type LoginLimitConfig,
  type SigningKey,
} from './config';
export { consoleRouter, type ConsoleOptions } from './console/router';
export { runCli, type CliIo } from './cli/run-cli';
export { buildOpenApiDocument } from './openapi/document';

// Database.
export { migrateToLatest, migrationSource } from './migrations';

// The platform model (fixtures, CLI, and the later management API).
export {
  createProject,
  createEnvironment,
  createTeam,
  createUser,
  addProjectMember,
  findProjectByName,
  findEnvironmentByName,
  findUserByEmail,
  DEFAULT_TEAM_NAME,
  PERMISSION_LEVELS,
  type PermissionLevel,
  type ProjectRow,
  type EnvironmentRow,
  type UserRow,
  type TeamRow,
} from './store/model';

// Management: the model changes the management API makes, each with its admin log.
export {
  bootstrapProject,
  createProjectFor,
  ADMIN_ROLE_NAME,
  type BootstrapResult,
} from './store/management/projects';
export {
  createEnvironmentWithSecret,
  updateEnvironment,
  deleteEnvironment,
  listEnvironments,
  type EnvironmentItem,
} from './store/management/environments';
export {
  addMember,
  updateMember,
  removeMember,
  listMembers,
  type MemberChanges,
  type MemberItem,
} from './store/management/members';
export {
  createRole,
  updateRole,
  deleteRole,
  listRoles,
  type RoleItem,
} from './store/management/roles';
export {
  createTeamWithLog,
  updateTeam,
  deleteTeam,
  listTeams,
  type TeamItem,
} from './store/management/teams';
export type { RoleRights, CollectionRights, ActionRights } from '@canopy/platform-protocol';
export { setUserPassword, MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } from './store/model/passwords';
export {
  issueAccountToken,
  redeemAccountToken,
  ACCOUNT_TOKEN_LIFETIME_MS,
  type AccountTokenPurpose,
  type IssuedAccountToken,
} from './store/model/account-tokens';
export {
  issueEnvironmentSecret,
  findEnvironmentBySecret,
  hashEnvironmentSecret,
} from './store/model/environment-secrets';

// Audit trail writers.
export {
  insertActivityLogs,
  ACTIVITY_ACTIONS,
  type ActivityLogInput,
  type ActivityAction,
  type ActivityType,
} from './store/activity-log-writer';
export {
  ensureActivityLogPartitions,
  listActivityLogPartitions,
  type ActivityLogPartition,
} from './store/activity-log-partitions';
export {
  purgeExpiredActivityLogs,
  type ProjectPurge,
  type PurgeReport,
} from './store/activity-log-retention';
export {
  insertAdminLogs,
  type AdminLogInput,
  type AdminLogType,
  type AdminLogResource,
  type AdminLogInitiator,
} from './store/admin-log-writer';
export {
  verifyActivityLogChain,
  type IntegrityReport,
  type BrokenLinkReason,
} from './integrity/verify-chain';
export { chainKeysOf, useChainKeys, type ChainKey } from './integrity/chain-keys';
export {
  checkpointChainHead,
  listCheckpoints,
  checkpointPublicKeys,
  checkpointSignatureIsValid,
  verifyAgainstCheckpoints,
  type ChainCheckpoint,
  type CheckpointPublicKey,
  type CheckpointReport,
} from './integrity/checkpoints';

// Tokens.
export {
  issueApplicationToken,
  type IssueApplicationTokenInput,
} from './tokens/issue-application-token';
export { signSessionToken, SCOPES, type Scope } from './auth';
export { issueMcpTokens, type McpGrant } from './auth/mcp-tokens';

// Errors.
export { ApiError, isApiError, type ApiErrorCode } from './errors';
