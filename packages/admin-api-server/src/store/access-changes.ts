import type { Knex } from 'knex';

/**
 * The PostgreSQL channel on which a committed change to what authorizes an application token is
 * announced (a token revoked, a member's level changed or removed, a project's SSO switched or
 * renamed, an environment created, renamed or deleted). Its payload is empty: every process drops
 * its whole cache of token contexts. Listened to on the event hub's LISTEN connection.
 */
export const ACCESS_CHANGES_CHANNEL = 'canopy_access_changes';

/**
 * Announces a change of access to every server process sharing the database. Pass the
 * transaction of the change: PostgreSQL delivers the notification when it commits (and never for a
 * rolled-back one), so no process can read the old state after it dropped its cache.
 */
export async function publishAccessChange(knex: Knex | Knex.Transaction): Promise<void> {
  await knex.raw('SELECT pg_notify(?, ?)', [ACCESS_CHANGES_CHANNEL, '']);
}
