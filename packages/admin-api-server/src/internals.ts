// `@canopy/admin-api-server/internals`: what the workspace's tests, benchmarks and tooling use
// besides the public API (src/index.ts): the store's queries and model changes, the management
// operations, partitions and retention, the chain's verification and checkpoints. No promise of
// stability: these follow the server's code.

export { consoleRouter } from './console/router';

// The platform model.
export {
  findProjectByName,
  findEnvironmentByName,
  findUserByEmail,
  DEFAULT_TEAM_NAME,
} from './store/model';
export {
  issueAccountToken,
  redeemAccountToken,
  ACCOUNT_TOKEN_LIFETIME_MS,
  type AccountTokenPurpose,
  type IssuedAccountToken,
} from './store/model/account-tokens';
export { findEnvironmentBySecret, hashEnvironmentSecret } from './store/model/environment-secrets';

// Management: the model changes the management API makes, each with its admin log.
export { createProjectFor } from './store/management/projects';
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

// The audit trail's storage and integrity.
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
  verifyActivityLogChain,
  type IntegrityReport,
  type BrokenLinkReason,
} from './integrity/verify-chain';
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
