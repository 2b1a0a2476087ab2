// The platform model: projects and what belongs to them, users, memberships.
export {
  createProject,
  createEnvironment,
  findProjectByName,
  findEnvironmentByName,
  type ProjectRow,
  type EnvironmentRow,
} from './projects';
export { createTeam, resolveUserTeam, DEFAULT_TEAM_NAME, type TeamRow } from './teams';
export { createUser, findUserByEmail, type UserRow } from './users';
export {
  addProjectMember,
  findPermissionLevel,
  PERMISSION_LEVELS,
  type PermissionLevel,
} from './memberships';
