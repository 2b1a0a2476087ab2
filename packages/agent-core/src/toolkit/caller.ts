/** Permission levels of a caller in the project. */
export type PermissionLevel = 'admin' | 'developer' | 'editor' | 'user';

/**
 * The identity on whose behalf every operation runs. `timezone` (an IANA name such as
 * `Europe/Paris`) drives relative date operators, in-memory date grouping and search on dates.
 *
 * @example
 * const caller: Caller = {
 *   id: 1, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace',
 *   team: 'Operations', role: 'Admin', tags: {}, timezone: 'Europe/London',
 * };
 */
export interface Caller {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  team: string;
  role: string;
  tags: Record<string, string>;
  timezone: string;
  permissionLevel?: PermissionLevel;
  renderingId?: number;
  requestId?: string;
  environment?: string;
  project?: string;
  request?: { ip?: string };
}
