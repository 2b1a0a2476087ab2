import type { Knex } from 'knex';
import * as platformModel from './20261121-001-platform-model';
import * as auditTrail from './20261121-002-audit-trail';
import * as notes from './20261121-003-notes';
import * as requestState from './20261121-004-request-state';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '20261121-001-platform-model': platformModel,
  '20261121-002-audit-trail': auditTrail,
  '20261121-003-notes': notes,
  '20261121-004-request-state': requestState,
};

/** The migrations as a knex source: imported modules, so they survive bundling. */
export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = MIGRATIONS[name];
    if (!migration) throw new Error(`Unknown migration "${name}".`);
    return migration;
  },
};

/**
 * Errors of two processes migrating one database at the same moment: knex's lock is taken, or
 * both created knex's own bookkeeping tables at once. Both clear up when retried.
 */
function isConcurrentMigration(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    error.message.includes('Migration table is already locked') ||
    (code === '23505' && error.message.includes('pg_type_typname_nsp_index')) ||
    (code === '42P07' && error.message.includes('knex_migrations'))
  );
}

/**
 * Applies every pending migration; returns the names applied. Several server processes may start
 * together on one database: the loser of the race waits and retries (up to about 30 s).
 */
export async function migrateToLatest(knex: Knex): Promise<string[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const [, applied] = (await knex.migrate.latest({ migrationSource })) as [number, string[]];
      return applied;
    } catch (error) {
      if (!isConcurrentMigration(error) || attempt >= 60) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
