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
