import type { SessionIdentity, SessionPermissionLevel } from '@canopy/platform-protocol';

/** Permission levels of a caller in the project. */
export type PermissionLevel = SessionPermissionLevel;

/**
 * Who a user is, as the platform knows them: what the login returns, what a session token and an
 * MCP access token carry, and what every {@link Caller} starts from. Build one with
 * {@link callerIdentity}, never field by field.
 */
export type CallerIdentity = SessionIdentity;

/**
 * The identity fields of `source` and nothing else (a session token's `iat`/`exp`, an MCP
 * token's scopes and the like are left out); `tags` defaults to `{}`.
 */
export function callerIdentity(
  source: Omit<CallerIdentity, 'tags'> & { tags?: Record<string, string> },
): CallerIdentity {
  return {
    id: source.id,
    email: source.email,
    firstName: source.firstName,
    lastName: source.lastName,
    team: source.team,
    role: source.role,
    permissionLevel: source.permissionLevel,
    renderingId: source.renderingId,
    tags: source.tags ?? {},
  };
}

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
export interface Caller
  extends
    Omit<CallerIdentity, 'permissionLevel' | 'renderingId'>,
    Partial<Pick<CallerIdentity, 'permissionLevel' | 'renderingId'>> {
  timezone: string;
  requestId?: string;
  /**
   * What kind of correlation the request's writes belong to (`revert`…), from the
   * `x-canopy-correlation-kind` header; stored with their history rows.
   */
  correlationKind?: string;
  environment?: string;
  project?: string;
  request?: { ip?: string };
  /**
   * A transaction opened on a data source's driver (see {@link CallerTransaction}). Every layer
   * of the customizer passes the caller down unchanged, so a data source that recognizes
   * `driver` as its own runs the operation inside `handle`.
   */
  transaction?: CallerTransaction;
}

/**
 * The transaction hook of data sources: `driver` is the `nativeDriver` of the collections whose
 * data source opened the transaction (for the SQL data source, its knex instance), `handle` the
 * open transaction (a knex transaction). A data source runs an operation in `handle` when the
 * caller carries a transaction whose `driver` is its own, and ignores it otherwise.
 *
 * @example
 * await knex.transaction((handle) =>
 *   collection.update({ ...caller, transaction: { driver: knex, handle } }, filter, patch));
 */
export interface CallerTransaction {
  readonly driver: unknown;
  readonly handle: unknown;
}
