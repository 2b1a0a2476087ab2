/** The scopes of application tokens (spec/admin-api.md §5); `all` grants everything. */
export const APPLICATION_TOKEN_SCOPES = [
  'activity_logs:read',
  'admin_logs:read',
  'notes:read',
  'notes:write',
  'all',
] as const;

/** One scope of an application token. */
export type ApplicationTokenScope = (typeof APPLICATION_TOKEN_SCOPES)[number];
